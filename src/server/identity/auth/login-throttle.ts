import { utc } from '../../../shared/dates.js';
import type { Clock } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import { HttpError } from '../../platform/http-error.js';
import {
  countAttempt,
  deleteSpentThrottles,
  deleteThrottle,
  deleteThrottlesWithPrefix,
  giveBackAttempt,
  hasSessionFromAddress,
  lockThrottle,
} from './login-throttle-repository.js';

/** The answer to a locked sign-in, with how long to wait. */
export function lockedOutError(until: Date, now: Date): HttpError {
  const seconds = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  const minutes = Math.ceil(seconds / 60);
  return new HttpError(
    429,
    'account_locked',
    `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}, or reset your password.`,
    { 'retry-after': String(seconds) },
  );
}

export interface LockoutPolicy {
  /** Failed attempts per (account, address) within the window that lock the pair. */
  threshold: number;
  /** The counting window and the length of a lock. */
  minutes: number;
}

/*
 * Two tiers, both counted per window and both ending by themselves:
 * - per (account, client address): a stranger hammering an account locks out only their own
 *   address, never the owner signing in from elsewhere;
 * - per account, over every address the account has not signed in from lately: spreading
 *   guesses over many addresses is capped too, yet cannot lock the owner out of their usual one.
 * An attempt is counted before its password is checked, in one atomic upsert per tier, so
 * concurrent attempts cannot all slip under the threshold while the slow hash runs.
 */
export type LockScope = 'address' | 'account';

const ACCOUNT_TIER_FACTOR = 4;
const KNOWN_ADDRESS_DAYS = 30;

// The account tier shares the `${email}|` prefix, so clearAllLoginFailures lifts it too.
const pairKey = (email: string, ip: string) => `${email}|${ip}`;
const accountKey = (email: string) => `${email}|*`;

interface CountedTier {
  scope: LockScope;
  key: string;
  threshold: number;
  /** This attempt's number within the tier's window. */
  count: number;
}

/** An attempt admitted to a password check, with the tiers it was counted in. */
export interface LoginAttempt {
  readonly tiers: readonly CountedTier[];
}

export type Admission = { admitted: true; attempt: LoginAttempt } | { admitted: false; retryAt: Date };

export interface EngagedLock {
  scope: LockScope;
  until: Date;
}

const minutesAfter = (from: Date, minutes: number) => new Date(from.getTime() + minutes * 60_000);

/** Takes back attempts that never reached a password check, so they do not count as guesses. */
async function giveBack(db: DbOrTransaction, tiers: readonly CountedTier[]): Promise<void> {
  for (const tier of tiers) await giveBackAttempt(db, tier.key);
}

/** Whether the account signed in from this address lately (a session was started from it). */
const isKnownAddress = (db: DbOrTransaction, now: Date, userId: string, ip: string) =>
  hasSessionFromAddress(db, userId, ip, utc(now).subtract(KNOWN_ADDRESS_DAYS, 'day').toISOString());

/**
 * Counts a sign-in attempt in every tier that applies, before any password is checked. Refuses
 * it when a tier is locked or has used up its attempts in this window (a concurrent attempt
 * is still being checked). Unknown accounts (`userId` undefined) get the account tier always,
 * so the answers do not tell which addresses have accounts.
 */
export async function admitLoginAttempt(
  db: DbOrTransaction,
  clock: Clock,
  policy: LockoutPolicy,
  target: { email: string; ip: string; userId: string | undefined },
): Promise<Admission> {
  const now = clock.now();
  const tiers: Omit<CountedTier, 'count'>[] = [
    { scope: 'address', key: pairKey(target.email, target.ip), threshold: policy.threshold },
  ];
  // Asked for unknown accounts too (no user has the empty id), so both take the same time.
  const known = await isKnownAddress(db, now, target.userId ?? '', target.ip);
  if (!known) {
    tiers.push({
      scope: 'account',
      key: accountKey(target.email),
      threshold: policy.threshold * ACCOUNT_TIER_FACTOR,
    });
  }

  const counted: CountedTier[] = [];
  for (const tier of tiers) {
    const row = await countAttempt(
      db,
      tier.key,
      now.toISOString(),
      minutesAfter(now, -policy.minutes).toISOString(),
    );
    // After the upsert a lock is always a live one: spent rows were started afresh.
    const retryAt = row.locked_until
      ? new Date(row.locked_until)
      : row.failures > tier.threshold
        ? minutesAfter(new Date(row.first_failure_at), policy.minutes)
        : undefined;
    if (retryAt) {
      // Only the tiers that admitted it give the attempt back; the refusing one is spent anyway.
      await giveBack(db, counted);
      return { admitted: false, retryAt };
    }
    counted.push({ ...tier, count: row.failures });
  }
  return { admitted: true, attempt: { tiers: counted } };
}

/** The password was right: the pair starts afresh and the account tier gets the attempt back. */
export async function recordLoginSuccess(db: DbOrTransaction, attempt: LoginAttempt): Promise<void> {
  for (const tier of attempt.tiers) {
    if (tier.scope === 'address') await deleteThrottle(db, tier.key);
    else await giveBack(db, [tier]);
  }
}

/** The password was never checked (e.g. the server was too busy): the attempt does not count. */
export async function cancelLoginAttempt(db: DbOrTransaction, attempt: LoginAttempt): Promise<void> {
  await giveBack(db, attempt.tiers);
}

/** The password was wrong: locks every tier this attempt was the last allowed one of. */
export async function recordLoginFailure(
  db: DbOrTransaction,
  clock: Clock,
  policy: LockoutPolicy,
  attempt: LoginAttempt,
): Promise<EngagedLock[]> {
  const now = clock.now();
  const until = minutesAfter(now, policy.minutes);
  const engaged: EngagedLock[] = [];
  for (const tier of attempt.tiers) {
    if (tier.count < tier.threshold) continue;
    await lockThrottle(db, tier.key, until.toISOString());
    engaged.push({ scope: tier.scope, until });
  }
  return engaged;
}

/** Lifts every lock on the account, e.g. after its owner proved control of the mailbox. */
export async function clearAllLoginFailures(db: DbOrTransaction, email: string): Promise<void> {
  await deleteThrottlesWithPrefix(db, `${email}|`);
}

/** Deletes spent rows (window and lock both over), which count exactly as if they were absent. */
export async function pruneLoginThrottles(
  db: DbOrTransaction,
  clock: Clock,
  policy: LockoutPolicy,
): Promise<number> {
  const now = clock.now();
  return deleteSpentThrottles(db, now.toISOString(), minutesAfter(now, -policy.minutes).toISOString());
}
