import type { DbOrTransaction } from '../../platform/db/database.js';
import type { PaymentRow, RefundRow } from '../../platform/db/tables.js';

// The queries behind refunds (refunds.ts says how a refund is reserved, asked for and completed).

/** A payment by our id or the provider's order id, as stored. */
export const findPaymentForRefund = (
  db: DbOrTransaction,
  idOrOrderId: string,
): Promise<PaymentRow | undefined> =>
  db
    .selectFrom('payments')
    .selectAll()
    .where((eb) => eb.or([eb('id', '=', idOrOrderId), eb('provider_order_id', '=', idOrOrderId)]))
    .executeTakeFirst();

/**
 * Holds the payment until the transaction ends: on PostgreSQL a row lock (a second refund of the
 * same payment waits here, then sees the first one's reservation); SQLite transactions already
 * hold the database's write lock from their start.
 */
export async function lockPayment(trx: DbOrTransaction, paymentId: string): Promise<void> {
  await trx
    .updateTable('payments')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', paymentId)
    .execute();
}

/** The payment's refunds, oldest first, each with the credit note issued for it (if any yet). */
export const refundsOfPayment = (db: DbOrTransaction, paymentId: string) =>
  db
    .selectFrom('refunds')
    .leftJoin('invoices', 'invoices.refund_id', 'refunds.id')
    .selectAll('refunds')
    .select(['invoices.id as credit_note_id', 'invoices.number as credit_note_number'])
    .where('refunds.payment_id', '=', paymentId)
    .orderBy('refunds.created_at')
    .orderBy('refunds.id')
    .execute();

/** Everything reserved or refunded on the payment, pending refunds included. */
export async function reservedOfPayment(db: DbOrTransaction, paymentId: string): Promise<number> {
  const row = await db
    .selectFrom('refunds')
    .select((eb) => eb.fn.sum<number | string | null>('amount_minor').as('total'))
    .where('payment_id', '=', paymentId)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

/** What was refunded of the payment, processed refunds only. */
export async function refundedOfPayment(db: DbOrTransaction, paymentId: string): Promise<number> {
  const row = await db
    .selectFrom('refunds')
    .select((eb) => eb.fn.sum<number | string | null>('amount_minor').as('total'))
    .where('payment_id', '=', paymentId)
    .where('status', '=', 'processed')
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

export const findRefund = (db: DbOrTransaction, id: string): Promise<RefundRow | undefined> =>
  db.selectFrom('refunds').selectAll().where('id', '=', id).executeTakeFirst();

/** The amount of a refund reserved under this id, if one was. */
export const findRefundAmount = (
  db: DbOrTransaction,
  id: string,
): Promise<Pick<RefundRow, 'amount_minor'> | undefined> =>
  db.selectFrom('refunds').select('amount_minor').where('id', '=', id).executeTakeFirst();

export async function insertRefund(db: DbOrTransaction, refund: RefundRow): Promise<void> {
  await db.insertInto('refunds').values(refund).execute();
}

export async function markRefundProcessed(
  db: DbOrTransaction,
  id: string,
  providerRefundId: string,
): Promise<void> {
  await db
    .updateTable('refunds')
    .set({ status: 'processed', provider_refund_id: providerRefundId })
    .where('id', '=', id)
    .execute();
}

/** Gives a reservation back, unless it was refunded meanwhile. */
export async function deletePendingRefund(db: DbOrTransaction, id: string): Promise<void> {
  await db.deleteFrom('refunds').where('id', '=', id).where('status', '=', 'pending').execute();
}

/** The server's own refunds (no administrator's) pending since `before`, oldest first, a batch at a time. */
export const pendingServerRefunds = (db: DbOrTransaction, before: string, limit: number) =>
  db
    .selectFrom('refunds')
    .select(['id', 'payment_id', 'amount_minor', 'reason'])
    .where('status', '=', 'pending')
    .where('actor_id', 'is', null)
    .where('created_at', '<=', before)
    .orderBy('created_at')
    .limit(limit)
    .execute();

/**
 * Ends the refunded payment's license now, unless it has ended already; true when it did. (A write
 * into licensing's table, as the refund did before its queries moved here.)
 */
export async function endLicenseNow(db: DbOrTransaction, licenseId: string, now: string): Promise<boolean> {
  const shortened = await db
    .updateTable('licenses')
    .set({ expires_at: now, updated_at: now })
    .where('id', '=', licenseId)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirst();
  return Number(shortened.numUpdatedRows) > 0;
}
