import { randomUUID } from 'node:crypto';
import type { Clock } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { LicenseRow, PlanRow, UserRow } from '../../platform/db/tables.js';
import { conflict, type HttpError } from '../../platform/http-error.js';
import type { LicensingEvents } from '../events.js';
import { issueLicense } from '../licenses/issue.js';
import { licensesOfUser } from '../licenses/repository.js';
import { effectiveStatus } from '../licenses/views.js';
import { findMachineTrial } from './machine-repository.js';
import { machineTrialUsed } from './machine-trials.js';
import { personHash } from './person.js';
import { earlierTrials, insertTrial } from './repository.js';
import { alreadyTried } from './service.js';

// Card trials: billing checks a subscription out with a trial of its plan, and starts the trial
// when the card is authorised. The rules are the free trials' own (one per account, person and
// machine, each plan), so a card does not buy a second trial.

/** Who asks for a card trial: the account and, from the desktop, the machine. */
export interface CardTrialBuyer {
  user: Pick<UserRow, 'id' | 'email'>;
  hardwareId: string | null;
}

/** The answer when a customer can no longer get a trial in the end: the subscription is not started. */
export const cardTrialRefused = (plan: Pick<PlanRow, 'name'>) =>
  conflict('trial_already_used', `A free trial of ${plan.name} was started already.`);

/**
 * Why this buyer may not check the plan out with a trial, or undefined when they may: the plan
 * offers none (no trial days, a free or a seat-based plan), they own a paid license of it
 * already, or they (their account, their e-mail address on another account, or the machine, also
 * before any account) had a trial of it, named with when it ran.
 */
export async function cardTrialRefusal(
  db: DbOrTransaction,
  clock: Clock,
  buyer: CardTrialBuyer,
  plan: PlanRow,
): Promise<HttpError | undefined> {
  if (plan.trial_days <= 0 || plan.billing_interval === 'free' || plan.seat_based === 1)
    return conflict(
      'trial_not_offered',
      `${plan.name} has no free trial: subscribe without one, or choose a plan that offers one.`,
    );
  const now = clock.now();
  const owned = (await licensesOfUser(db, buyer.user.id)).find(
    (row) => row.plan_id === plan.id && row.trial_ends_at === null && effectiveStatus(row, now) === 'active',
  );
  if (owned)
    return conflict(
      'plan_already_owned',
      `You already have a ${plan.name} license, so there is nothing to try: it is on your Licenses page.`,
    );
  const who = {
    userId: buyer.user.id,
    personHash: personHash(buyer.user.email),
    hardwareId: buyer.hardwareId,
  };
  const [earlier] = await earlierTrials(db, { ...who, planId: plan.id });
  if (earlier) return alreadyTried(earlier, who, plan);
  // A machine that tried the plan before any account (running, ended or taken over) gets no
  // second trial by card: a running one is the account's to take over with the free trial.
  const onMachine =
    buyer.hardwareId === null ? undefined : await findMachineTrial(db, buyer.hardwareId, plan.id);
  return onMachine ? machineTrialUsed(onMachine, plan) : undefined;
}

/**
 * Starts a card trial in the caller's transaction, once the subscription's card is authorised: a
 * trial license of the plan until `endsAt` (its expiry too), tied to the subscription whose first
 * charge converts it, and the trial's row with source `card`. The unique indexes of the trials
 * make the second of two starts for one account, person or machine fail here (a unique
 * violation the caller answers with the refusal), on any number of servers.
 */
export async function startCardTrial(
  trx: DbOrTransaction,
  clock: Clock,
  events: LicensingEvents,
  start: CardTrialBuyer & { plan: PlanRow; subscriptionId: string; endsAt: string },
): Promise<LicenseRow> {
  const license = await issueLicense(trx, clock, events, {
    userId: start.user.id,
    plan: start.plan,
    subscriptionId: start.subscriptionId,
    expiresAt: start.endsAt,
    trialEndsAt: start.endsAt,
    metadata: { trial: true, subscription_id: start.subscriptionId },
  });
  await insertTrial(trx, {
    id: randomUUID(),
    license_id: license.id,
    user_id: start.user.id,
    plan_id: start.plan.id,
    person_hash: personHash(start.user.email),
    hardware_id: start.hardwareId,
    source: 'card',
    started_at: clock.now().toISOString(),
    ends_at: start.endsAt,
    converted_at: null,
  });
  await events.publish(trx, { type: 'license.trial_started', license });
  return license;
}
