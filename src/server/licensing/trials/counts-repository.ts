import { sql } from 'kysely';
import type { DbOrTransaction } from '../../platform/db/database.js';

/** The trials started in one UTC month, and how many of those were bought since. */
export interface TrialMonthRow {
  /** YYYY-MM of `started_at`. */
  period: string;
  started: number | string;
  converted: number | string;
}

/**
 * Free trials started since `since`, per UTC month of their start, with the ones of them converted
 * (bought) by now: the administrators' conversion over time. Every trial counts, its license or
 * account gone or not.
 */
export function trialsByStartMonth(db: DbOrTransaction, since: string): Promise<TrialMonthRow[]> {
  const period = sql<string>`substr(${sql.ref('started_at')}, 1, 7)`;
  return db
    .selectFrom('license_trials')
    .select((eb) => [
      period.as('period'),
      eb.fn.countAll<number | string>().as('started'),
      eb.fn.count<number | string>('converted_at').as('converted'),
    ])
    .where('started_at', '>=', since)
    .groupBy(period)
    .execute();
}
