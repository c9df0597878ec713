import type { z } from 'zod';
import type { AdminPayment, adminPaymentListQuerySchema } from '../../../shared/api/payments.js';
import type { Paged } from '../../../shared/api/paging.js';
import type { Db } from '../../platform/db/database.js';
import { notFound } from '../../platform/http-error.js';
import type { Clock } from '../../platform/clock.js';
import { adminPaymentView, findAdminPayment, listAdminPayments } from './repository.js';
import { expiredBefore } from './service.js';

type AdminPaymentListQuery = z.output<typeof adminPaymentListQuerySchema>;

/** Every payment, for administrators (`/payments/admin/payments`). */
export function createAdminPaymentsService({
  db,
  clock,
  checkoutExpiryMinutes,
}: {
  db: Db;
  clock: Clock;
  /** Orders left unpaid this long read as expired, as the buyer sees them. */
  checkoutExpiryMinutes: number;
}) {
  const cutoff = () => expiredBefore(clock.now(), checkoutExpiryMinutes);
  return {
    async list(query: AdminPaymentListQuery): Promise<Paged<AdminPayment>> {
      const before = cutoff();
      const page = await listAdminPayments(db, query, before);
      return { ...page, data: page.data.map((row) => adminPaymentView(row, before)) };
    },

    async get(idOrOrderId: string): Promise<AdminPayment> {
      const row = await findAdminPayment(db, idOrOrderId);
      if (!row) throw notFound('payment_not_found', 'Payment not found');
      return adminPaymentView(row, cutoff());
    },
  };
}

export type AdminPaymentsService = ReturnType<typeof createAdminPaymentsService>;
