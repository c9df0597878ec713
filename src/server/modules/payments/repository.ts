import type { AdminPayment, Payment } from '../../../shared/api/payments.js';
import type { DbOrTransaction } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { PaymentRow } from '../../db/tables.js';
import { conflict } from '../../http-error.js';

/** A payment row with the plan it buys (the plan is never deleted while payments refer to it). */
export type PaymentWithPlan = PaymentRow & { plan_code: string; plan_name: string };
export type PaymentWithUser = PaymentWithPlan & { user_email: string | null };

export const toPayment = (row: PaymentWithPlan): Payment => ({
  id: row.id,
  order_id: row.provider_order_id,
  payment_id: row.provider_payment_id,
  provider: row.provider,
  sandbox: row.provider === 'sandbox',
  status: row.status,
  amount: Number(row.amount_minor),
  currency: row.currency,
  plan_id: row.plan_id,
  plan: { id: row.plan_id, code: row.plan_code, name: row.plan_name },
  license_id: row.license_id,
  failure_reason: row.failure_reason,
  created_at: row.created_at,
  updated_at: row.updated_at,
  paid_at: row.paid_at,
});

export const toAdminPayment = (row: PaymentWithUser): AdminPayment => ({
  ...toPayment(row),
  user_id: row.user_id,
  user_email: row.user_email,
});

/** Payments joined with their plan's code and name. */
export const paymentsWithPlan = (db: DbOrTransaction) =>
  db
    .selectFrom('payments')
    .innerJoin('plans', 'plans.id', 'payments.plan_id')
    .selectAll('payments')
    .select(['plans.code as plan_code', 'plans.name as plan_name']);

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
