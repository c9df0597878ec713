import type { z } from 'zod';
import type { AdminPayment, adminPaymentListQuerySchema } from '../../../shared/api/payments.js';
import type { Paged } from '../../../shared/api/paging.js';
import type { Db } from '../../db/database.js';
import { notFound } from '../../http-error.js';
import { findAdminPayment, listAdminPayments, toAdminPayment } from './repository.js';

type AdminPaymentListQuery = z.output<typeof adminPaymentListQuerySchema>;

/** Every payment, for administrators (`/payments/admin/payments`). */
export function createAdminPaymentsService({ db }: { db: Db }) {
  return {
    async list(query: AdminPaymentListQuery): Promise<Paged<AdminPayment>> {
      const page = await listAdminPayments(db, query);
      return { ...page, data: page.data.map(toAdminPayment) };
    },

    async get(idOrOrderId: string): Promise<AdminPayment> {
      const row = await findAdminPayment(db, idOrOrderId);
      if (!row) throw notFound('payment_not_found', 'Payment not found');
      return toAdminPayment(row);
    },
  };
}

export type AdminPaymentsService = ReturnType<typeof createAdminPaymentsService>;
