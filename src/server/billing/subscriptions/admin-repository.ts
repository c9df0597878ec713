import { sql } from 'kysely';
import type { z } from 'zod';
import type { adminSubscriptionListQuerySchema } from '../../../shared/api/admin-subscriptions.js';
import type { Paged } from '../../../shared/api/paging.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import { fetchPage, matchesSearch } from '../../platform/db/paging.js';
import type { SubscriptionRow } from '../../platform/db/tables.js';
import { type InvoiceWithOrigin, invoicesWithOrigin } from '../invoices/repository.js';
import { type PaymentWithUser, paymentsWithUser } from '../payments/repository.js';

export type SubscriptionWithUser = SubscriptionRow & {
  user_email: string | null;
  organisation_name: string | null;
};

/** A subscription's period end, with none (pending or ended) sorting after every dated one. */
const sortColumns = {
  created_at: sql.ref('subscriptions.created_at'),
  current_period_end: sql`coalesce(${sql.ref('subscriptions.current_period_end')}, '9999-12-31T23:59:59.999Z')`,
  status: sql.ref('subscriptions.status'),
};

const subscriptionsWithUser = (db: DbOrTransaction) =>
  db
    .selectFrom('subscriptions')
    .leftJoin('users', 'users.id', 'subscriptions.user_id')
    .leftJoin('organisations', 'organisations.id', 'subscriptions.organisation_id')
    .selectAll('subscriptions')
    .select(['users.email as user_email', 'organisations.name as organisation_name']);

/**
 * One page of every customer's subscriptions. Without a status filter the pending ones (opened
 * checkouts never paid) are left out: they are not subscriptions anybody pays for.
 */
export async function listAdminSubscriptions(
  db: DbOrTransaction,
  query: z.output<typeof adminSubscriptionListQuerySchema>,
): Promise<Paged<SubscriptionWithUser>> {
  let select = subscriptionsWithUser(db);
  select = query.status
    ? select.where('subscriptions.status', '=', query.status)
    : select.where('subscriptions.status', '<>', 'pending');
  if (query.planId) select = select.where('subscriptions.plan_id', '=', query.planId);
  if (query.userId) select = select.where('subscriptions.user_id', '=', query.userId);
  if (query.from) select = select.where('subscriptions.created_at', '>=', query.from);
  if (query.to) select = select.where('subscriptions.created_at', '<=', query.to);
  if (query.search)
    select = select.where(
      matchesSearch(
        ['users.email', 'subscriptions.provider_subscription_id', 'subscriptions.id'],
        query.search,
      ),
    );
  const sort = query.sort ?? { field: 'created_at', direction: 'desc' };
  select = select
    .orderBy(sortColumns[sort.field], sort.direction)
    .$if(sort.field !== 'created_at', (ordered) => ordered.orderBy('subscriptions.created_at', 'desc'))
    .orderBy('subscriptions.id', sort.direction);
  return fetchPage(select, query);
}

/** Any subscription with its customer's e-mail, by our id or the provider's. */
export const findAdminSubscription = (
  db: DbOrTransaction,
  id: string,
): Promise<SubscriptionWithUser | undefined> =>
  subscriptionsWithUser(db)
    .where((eb) =>
      eb.or([eb('subscriptions.id', '=', id), eb('subscriptions.provider_subscription_id', '=', id)]),
    )
    .executeTakeFirst();

/** Every charge of a subscription with its plan and payer, newest first. */
export const chargesWithUser = (db: DbOrTransaction, subscriptionId: string): Promise<PaymentWithUser[]> =>
  paymentsWithUser(db)
    .where('payments.subscription_id', '=', subscriptionId)
    .orderBy('payments.created_at', 'desc')
    .orderBy('payments.id', 'desc')
    .execute();

/** The invoices of these payments and the credit notes that correct them, newest first. */
export async function invoicesOfPayments(
  db: DbOrTransaction,
  paymentIds: string[],
): Promise<InvoiceWithOrigin[]> {
  if (paymentIds.length === 0) return [];
  return invoicesWithOrigin(db)
    .where((eb) =>
      eb.or([eb('invoices.payment_id', 'in', paymentIds), eb('origin.payment_id', 'in', paymentIds)]),
    )
    .orderBy('invoices.issued_at', 'desc')
    .orderBy('invoices.number', 'desc')
    .execute();
}
