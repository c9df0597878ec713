import type { DbOrTransaction } from '../../platform/db/database.js';
import type { UsagePackOrdersTable } from '../../platform/db/tables.js';

/** Notes what an open order buys, with the order's payment (same transaction). */
export async function insertPackOrder(db: DbOrTransaction, order: UsagePackOrdersTable): Promise<void> {
  await db.insertInto('usage_pack_orders').values(order).execute();
}

/** What a payment's order buys, when it is an order for credit packs. */
export async function findPackOrder(
  db: DbOrTransaction,
  paymentId: string,
): Promise<UsagePackOrdersTable | undefined> {
  return db
    .selectFrom('usage_pack_orders')
    .selectAll()
    .where('payment_id', '=', paymentId)
    .executeTakeFirst();
}
