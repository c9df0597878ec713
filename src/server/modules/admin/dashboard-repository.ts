import { sql } from 'kysely';
import type { DbOrTransaction } from '../../db/database.js';

/** Paid revenue per currency (and period, when grouped by one). */
export interface RevenueRow {
  period: string;
  currency: string;
  amount: number | string | null;
  payments: number | string;
}

/** Accounts by status and role, and those created since `recentSince`. */
export const countUsers = (db: DbOrTransaction, recentSince: string) =>
  db
    .selectFrom('users')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('total'),
      eb.fn.countAll<number | string>().filterWhere('status', '=', 'active').as('active'),
      eb.fn.countAll<number | string>().filterWhere('status', '=', 'disabled').as('disabled'),
      eb.fn.countAll<number | string>().filterWhere('role', '=', 'admin').as('admins'),
      eb.fn.countAll<number | string>().filterWhere('created_at', '>=', recentSince).as('recent'),
    ])
    .executeTakeFirstOrThrow();

/** Licenses by the status people see at `nowIso`: an active row past its expiry counts as expired. */
export const countLicenses = (db: DbOrTransaction, nowIso: string) =>
  db
    .selectFrom('licenses')
    .select((eb) => {
      const expired = eb.and([eb('status', '=', 'active'), eb('expires_at', '<=', nowIso)]);
      return [
        eb.fn.countAll<number | string>().as('total'),
        eb.fn
          .countAll<number | string>()
          .filterWhere((inner) =>
            inner.and([
              inner('status', '=', 'active'),
              inner.or([inner('expires_at', 'is', null), inner('expires_at', '>', nowIso)]),
            ]),
          )
          .as('active'),
        eb.fn.countAll<number | string>().filterWhere('status', '=', 'suspended').as('suspended'),
        eb.fn.countAll<number | string>().filterWhere('status', '=', 'revoked').as('revoked'),
        eb.fn
          .countAll<number | string>()
          .filterWhere((inner) => inner.or([inner('status', '=', 'expired'), expired]))
          .as('expired'),
      ];
    })
    .executeTakeFirstOrThrow();

/** Machines holding a seat, and machines activated since `recentSince`. */
export const countActivations = (db: DbOrTransaction, recentSince: string) =>
  db
    .selectFrom('activations')
    .select((eb) => [
      eb.fn.countAll<number | string>().filterWhere('deactivated_at', 'is', null).as('active'),
      eb.fn.countAll<number | string>().filterWhere('activated_at', '>=', recentSince).as('recent'),
    ])
    .executeTakeFirstOrThrow();

/** Everything ever paid, per currency. */
export const revenueTotals = (db: DbOrTransaction): Promise<Omit<RevenueRow, 'period'>[]> =>
  db
    .selectFrom('payments')
    .select((eb) => [
      'currency',
      eb.fn.sum<number | string | null>('amount_minor').as('amount'),
      eb.fn.countAll<number | string>().as('payments'),
    ])
    .where('status', '=', 'paid')
    .groupBy('currency')
    .execute();

/** Paid revenue per currency and period, `length` characters of `paid_at` naming the period. */
export function revenueSince(db: DbOrTransaction, since: string, length: 7 | 10): Promise<RevenueRow[]> {
  const period = sql<string>`substr(${sql.ref('paid_at')}, 1, ${sql.lit(length)})`;
  return db
    .selectFrom('payments')
    .select((eb) => [
      period.as('period'),
      'currency',
      eb.fn.sum<number | string | null>('amount_minor').as('amount'),
      eb.fn.countAll<number | string>().as('payments'),
    ])
    .where('status', '=', 'paid')
    .where('paid_at', '>=', since)
    .groupBy([period, 'currency'])
    .execute();
}
