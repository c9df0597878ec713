import type { z } from 'zod';
import type { Insertable } from 'kysely';
import type {
  AdminPayment,
  adminPaymentListQuerySchema,
  Payment,
  paymentHistoryQuerySchema,
  PaymentStatus,
} from '../../../shared/api/payments.js';
import type { Paged } from '../../../shared/api/paging.js';
import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../../platform/db/tables.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import { fetchPage, matchesSearch } from '../../platform/db/paging.js';
import type { PaymentRow, PaymentsTable, PaymentWebhookEventsTable } from '../../platform/db/tables.js';
import { conflict } from '../../platform/http-error.js';

/** A payment row with the plan it buys (the plan is never deleted while payments refer to it). */
export type PaymentWithPlan = PaymentRow & {
  dismissed_at: string | null;
  plan_code: string;
  plan_name: string;
  /** Processed refunds of the payment, in minor units (a pending one is not refunded yet). */
  refunded_minor: number | string | null;
};
export type PaymentWithUser = PaymentWithPlan & { user_email: string | null };

/**
 * An order left unpaid since `expiredBefore` (an ISO time: now less CHECKOUT_EXPIRY_MINUTES) is
 * expired. Worked out when read, so every instance agrees without a job; the row stays `created`,
 * and a late payment still settles it. A subscription's charge never expires this way.
 */
export const isExpiredOrder = (
  row: Pick<PaymentRow, 'status' | 'kind' | 'created_at'>,
  expiredBefore: string | undefined,
): boolean =>
  expiredBefore !== undefined &&
  row.status === 'created' &&
  row.kind === 'purchase' &&
  row.created_at <= expiredBefore;

/** The same rule in SQL (ISO times compare as text on both databases). */
const expiredOrder = (eb: ExpressionBuilder<Database, 'payments'>, expiredBefore: string) =>
  eb.and([
    eb('payments.status', '=', 'created'),
    eb('payments.kind', '=', 'purchase'),
    eb('payments.created_at', '<=', expiredBefore),
  ]);

/** Filters by the status a payment reads as, `expired` included. */
const withStatus =
  (expiredBefore: string, status: PaymentStatus) => (eb: ExpressionBuilder<Database, 'payments'>) => {
    if (status === 'expired') return expiredOrder(eb, expiredBefore);
    if (status === 'created')
      return eb.and([eb('payments.status', '=', 'created'), eb.not(expiredOrder(eb, expiredBefore))]);
    return eb('payments.status', '=', status);
  };

/** The API's view of a payment, expired orders told apart when `expiredBefore` is given (see {@link isExpiredOrder}). */
export const paymentView = (row: PaymentWithPlan, expiredBefore: string | undefined): Payment => ({
  id: row.id,
  order_id: row.provider_order_id,
  payment_id: row.provider_payment_id,
  provider: row.provider,
  sandbox: row.provider === 'sandbox',
  status: isExpiredOrder(row, expiredBefore) ? 'expired' : row.status,
  kind: row.kind,
  amount: Number(row.amount_minor),
  refunded: Number(row.refunded_minor ?? 0),
  currency: row.currency,
  plan_id: row.plan_id,
  plan: { id: row.plan_id, code: row.plan_code, name: row.plan_name },
  license_id: row.license_id,
  failure_reason: row.failure_reason,
  created_at: row.created_at,
  updated_at: row.updated_at,
  paid_at: row.paid_at,
  dismissed_at: row.dismissed_at,
});

/** The API's view of a payment as it is stored (a subscription's charge, which never expires). */
export const toPayment = (row: PaymentWithPlan): Payment => paymentView(row, undefined);

export const adminPaymentView = (row: PaymentWithUser, expiredBefore: string | undefined): AdminPayment => ({
  ...paymentView(row, expiredBefore),
  user_id: row.user_id,
  user_email: row.user_email,
});

export const toAdminPayment = (row: PaymentWithUser): AdminPayment => adminPaymentView(row, undefined);

/** Payments joined with their plan's code and name, and what was refunded of each. */
export const paymentsWithPlan = (db: DbOrTransaction) =>
  db
    .selectFrom('payments')
    .innerJoin('plans', 'plans.id', 'payments.plan_id')
    .selectAll('payments')
    .select((eb) => [
      'plans.code as plan_code',
      'plans.name as plan_name',
      eb
        .selectFrom('refunds')
        .select((inner) => inner.fn.sum<number | string | null>('refunds.amount_minor').as('refunded'))
        .whereRef('refunds.payment_id', '=', 'payments.id')
        .where('refunds.status', '=', 'processed')
        .as('refunded_minor'),
    ]);

/** Payments joined with their plan and the buyer's e-mail (null once the account is deleted). */
export const paymentsWithUser = (db: DbOrTransaction) =>
  paymentsWithPlan(db).leftJoin('users', 'users.id', 'payments.user_id').select('users.email as user_email');

export const findPaymentById = (db: DbOrTransaction, id: string): Promise<PaymentWithPlan | undefined> =>
  paymentsWithPlan(db).where('payments.id', '=', id).executeTakeFirst();

export const findPaymentByOrderId = (
  db: DbOrTransaction,
  orderId: string,
): Promise<PaymentWithPlan | undefined> =>
  paymentsWithPlan(db).where('payments.provider_order_id', '=', orderId).executeTakeFirst();

/** The user's own payment by our id or the provider's order id; another user's reads as not found. */
export const findOwnPayment = (
  db: DbOrTransaction,
  userId: string,
  idOrOrderId: string,
): Promise<PaymentWithPlan | undefined> =>
  paymentsWithPlan(db)
    .where('payments.user_id', '=', userId)
    .where((eb) =>
      eb.or([eb('payments.id', '=', idOrOrderId), eb('payments.provider_order_id', '=', idOrOrderId)]),
    )
    .executeTakeFirst();

/**
 * Records a failed attempt unless the payment is already paid: events arrive out of order, and a
 * late failure of one attempt must not undo another attempt's success. True when it changed the row.
 */
export async function markPaymentFailed(
  db: DbOrTransaction,
  id: string,
  failure: { providerPaymentId: string | null; reason: string; at: string },
): Promise<boolean> {
  const update = db
    .updateTable('payments')
    .set({
      status: 'failed',
      failure_reason: failure.reason.slice(0, 500),
      updated_at: failure.at,
      ...(failure.providerPaymentId ? { provider_payment_id: failure.providerPaymentId } : {}),
    })
    .where('id', '=', id)
    .where('status', '<>', 'paid');
  try {
    const result = await update.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  } catch (error) {
    if (isUniqueViolation(error)) throw providerPaymentIdTaken();
    throw error;
  }
}

/** A provider payment id is one attempt on one order; the same id reported for another order is refused. */
export const providerPaymentIdTaken = () =>
  conflict('provider_payment_id_in_use', 'This payment id is already recorded for another order');

export async function insertPayment(db: DbOrTransaction, row: Insertable<PaymentsTable>): Promise<void> {
  await db.insertInto('payments').values(row).execute();
}

export const findPaymentRow = (db: DbOrTransaction, id: string): Promise<PaymentRow> =>
  db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** One page of the user's own payments, newest first unless sorted otherwise; dismissed ones only when asked. */
export async function paymentHistory(
  db: DbOrTransaction,
  userId: string,
  query: z.output<typeof paymentHistoryQuerySchema>,
  expiredBefore: string,
): Promise<Paged<PaymentWithPlan>> {
  let select = paymentsWithPlan(db).where('payments.user_id', '=', userId);
  if (query.status) select = select.where(withStatus(expiredBefore, query.status));
  if (query.dismissed === 'hide') select = select.where('payments.dismissed_at', 'is', null);
  const sort = query.sort ?? { field: 'created_at', direction: 'desc' };
  const column = sort.field === 'amount' ? 'payments.amount_minor' : (`payments.${sort.field}` as const);
  select = select.orderBy(column, sort.direction).orderBy('payments.id', sort.direction);
  return fetchPage(select, query);
}

const adminSortColumns = {
  created_at: 'payments.created_at',
  amount: 'payments.amount_minor',
  status: 'payments.status',
} as const;

/** One page of every payment with its buyer, filtered and sorted as the console asks. */
export async function listAdminPayments(
  db: DbOrTransaction,
  query: z.output<typeof adminPaymentListQuerySchema>,
  expiredBefore: string,
): Promise<Paged<PaymentWithUser>> {
  let select = paymentsWithUser(db);
  if (query.search) {
    select = select.where(
      matchesSearch(
        ['payments.provider_order_id', 'payments.provider_payment_id', 'users.email'],
        query.search,
      ),
    );
  }
  if (query.status) select = select.where(withStatus(expiredBefore, query.status));
  if (query.userId) select = select.where('payments.user_id', '=', query.userId);
  if (query.planId) select = select.where('payments.plan_id', '=', query.planId);
  if (query.from) select = select.where('payments.created_at', '>=', query.from);
  if (query.to) select = select.where('payments.created_at', '<=', query.to);
  const sort = query.sort ?? { field: 'created_at', direction: 'desc' };
  select = select
    .orderBy(adminSortColumns[sort.field], sort.direction)
    .orderBy('payments.id', sort.direction);
  return fetchPage(select, query);
}

/** Any payment with its buyer, by our id or the provider's order id. */
export const findAdminPayment = (
  db: DbOrTransaction,
  idOrOrderId: string,
): Promise<PaymentWithUser | undefined> =>
  paymentsWithUser(db)
    .where((eb) =>
      eb.or([eb('payments.id', '=', idOrOrderId), eb('payments.provider_order_id', '=', idOrOrderId)]),
    )
    .executeTakeFirst();

/** The conditional UPDATE only one caller can win: the row as it is now paid, or undefined. */
export async function claimPayment(
  db: DbOrTransaction,
  paymentId: string,
  providerPaymentId: string,
  now: string,
): Promise<PaymentRow | undefined> {
  try {
    return await db
      .updateTable('payments')
      .set({
        status: 'paid',
        provider_payment_id: providerPaymentId,
        paid_at: now,
        updated_at: now,
        failure_reason: null,
        // A dismissed order paid late is back in its owner's history.
        dismissed_at: null,
      })
      .where('id', '=', paymentId)
      .where('status', '<>', 'paid')
      .returningAll()
      .executeTakeFirst();
  } catch (error) {
    if (isUniqueViolation(error)) throw providerPaymentIdTaken();
    throw error;
  }
}

/**
 * Hides the user's expired or failed order from their history; true when it did. Conditional, so
 * an order paid meanwhile (a late payment) is never hidden.
 */
export async function dismissOrder(
  db: DbOrTransaction,
  userId: string,
  paymentId: string,
  expiredBefore: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('payments')
    .set({ dismissed_at: now })
    .where('id', '=', paymentId)
    .where('user_id', '=', userId)
    .where('dismissed_at', 'is', null)
    .where((eb) => eb.or([eb('payments.status', '=', 'failed'), expiredOrder(eb, expiredBefore)]))
    .where('kind', '=', 'purchase')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function setPaymentLicense(
  db: DbOrTransaction,
  paymentId: string,
  licenseId: string,
): Promise<void> {
  await db.updateTable('payments').set({ license_id: licenseId }).where('id', '=', paymentId).execute();
}

/** Records a delivered webhook event unless its id is known; false for a redelivery. */
export async function insertWebhookEvent(
  db: DbOrTransaction,
  row: PaymentWebhookEventsTable,
): Promise<boolean> {
  const inserted = await db
    .insertInto('payment_webhook_events')
    .values(row)
    .onConflict((conflict) => conflict.column('id').doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function setWebhookOutcome(
  db: DbOrTransaction,
  id: string,
  outcome: PaymentWebhookEventsTable['outcome'],
  paymentId: string | null,
): Promise<void> {
  await db
    .updateTable('payment_webhook_events')
    .set({ outcome, payment_id: paymentId })
    .where('id', '=', id)
    .execute();
}
