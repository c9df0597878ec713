import type { DbOrTransaction } from '../../platform/db/database.js';
import type { CounterKey } from './ingest-repository.js';
import { addToMemberCounter, lockMemberCounter, type MemberCaps } from './member-usage-repository.js';

/** The member of an organisation reporting on its license, with the caps set on them by feature. */
export interface ReportingMember {
  userId: string;
  caps: MemberCaps;
}

interface CappedEvent extends CounterKey {
  amount: number;
  featureName: string;
}

const keyOf = (key: CounterKey) => `${key.featureId}|${key.periodStart}`;

/**
 * A member's share of an organisation's pool within one counting transaction: their own counters
 * of the batch's features and periods, locked after the license's (so in the same order by every
 * batch), checked against their caps as events are admitted and added to as they count.
 */
export async function openMemberLedger(
  db: DbOrTransaction,
  licenseId: string,
  member: ReportingMember,
  keys: CounterKey[],
) {
  const totals = new Map<string, number>();
  for (const key of keys) totals.set(keyOf(key), await lockMemberCounter(db, licenseId, member.userId, key));
  return {
    /** The event's refusal when it would pass the member's cap, given what the batch took so far. */
    refusal(event: CappedEvent): { outcome: 'refused'; code: string; message: string } | undefined {
      const total = totals.get(keyOf(event)) ?? 0;
      const cap = member.caps.get(event.featureId);
      if (cap !== undefined && total + event.amount > cap)
        return {
          outcome: 'refused',
          code: 'member_cap_reached',
          message: `${event.featureName}: your organization caps your use at ${cap} this period`,
        };
      return undefined;
    },

    /** Takes an admitted event into the member's running total for the rest of the batch. */
    take(event: CappedEvent): void {
      totals.set(keyOf(event), (totals.get(keyOf(event)) ?? 0) + event.amount);
    },

    /** Adds what counted to the member's counter. */
    add: (key: CounterKey, amount: number) => addToMemberCounter(db, licenseId, member.userId, key, amount),
  };
}
