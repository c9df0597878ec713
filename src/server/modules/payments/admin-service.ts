import type { z } from 'zod';
import type { AdminPayment, adminPaymentListQuerySchema } from '../../../shared/api/payments.js';
import type { Paged } from '../../../shared/api/paging.js';
import type { Db } from '../../db/database.js';
import { fetchPage, matchesSearch } from '../../db/paging.js';
import { notFound } from '../../http-error.js';
import { paymentsWithUser, toAdminPayment } from './repository.js';

type AdminPaymentListQuery = z.output<typeof adminPaymentListQuerySchema>;

const sortColumns = {
  created_at: 'payments.created_at',
  amount: 'payments.amount_minor',
  status: 'payments.status',
} as const;

/** Every payment, for administrators (`/payments/admin/payments`). */
export function createAdminPaymentsService({ db }: { db: Db }) {
  return {
    async list(query: AdminPaymentListQuery): Promise<Paged<AdminPayment>> {
      let select = paymentsWithUser(db);
      if (query.search) {
        select = select.where(
          matchesSearch(
            ['payments.provider_order_id', 'payments.provider_payment_id', 'users.email'],
            query.search,
          ),
        );
      }
      if (query.status) select = select.where('payments.status', '=', query.status);
      if (query.userId) select = select.where('payments.user_id', '=', query.userId);
      if (query.planId) select = select.where('payments.plan_id', '=', query.planId);
      if (query.from) select = select.where('payments.created_at', '>=', query.from);
      if (query.to) select = select.where('payments.created_at', '<=', query.to);
      const sort = query.sort ?? { field: 'created_at', direction: 'desc' };
      select = select.orderBy(sortColumns[sort.field], sort.direction).orderBy('payments.id', sort.direction);
      const page = await fetchPage(select, query);
      return { ...page, data: page.data.map(toAdminPayment) };
    },

    async get(idOrOrderId: string): Promise<AdminPayment> {
      const row = await paymentsWithUser(db)
        .where((eb) =>
          eb.or([eb('payments.id', '=', idOrOrderId), eb('payments.provider_order_id', '=', idOrOrderId)]),
        )
        .executeTakeFirst();
      if (!row) throw notFound('payment_not_found', 'Payment not found');
      return toAdminPayment(row);
    },
  };
}

export type AdminPaymentsService = ReturnType<typeof createAdminPaymentsService>;
