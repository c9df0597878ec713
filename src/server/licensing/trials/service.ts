import { randomUUID } from 'node:crypto';
import type { StartTrialRequest, TrialStarted } from '../../../shared/api/licenses.js';
import { utc } from '../../../shared/dates.js';
import { dayCount } from '../../../shared/trial-days.js';
import { findOfferedPlanByIdOrCode } from '../../catalogue/index.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import type { LicenseRow, PlanRow, UserRow } from '../../platform/db/tables.js';
import type { LicenseTrialRow } from '../../platform/db/tables-trials.js';
import { conflict, HttpError, notFound } from '../../platform/http-error.js';
import { formatDate } from '../../platform/mail/formatting.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import type { LicensingEvents } from '../events.js';
import type { ActivationService } from '../licenses/activation-service.js';
import { issueLicense } from '../licenses/issue.js';
import { licensesOfUser } from '../licenses/repository.js';
import { effectiveStatus, toLicense } from '../licenses/views.js';
import { personHash } from './person.js';
import { earlierTrials, insertTrial } from './repository.js';

/** "18 December 2026": a day in an API message, as docs/writing.md has the server write it. */
const day = (iso: string) => formatDate(iso);

/** Why this account cannot start a trial of the plan: an earlier trial, named with when it ran. */
function alreadyTried(
  earlier: LicenseTrialRow,
  who: { userId: string; personHash: string; hardwareId: string | null },
  plan: PlanRow,
): HttpError {
  const when = `from ${day(earlier.started_at)} to ${day(earlier.ends_at)}`;
  const extra = { earlier_trial: { started_at: earlier.started_at, ends_at: earlier.ends_at } };
  const buy = `Buy ${plan.name} on the Purchase page to keep using it.`;
  if (earlier.user_id === who.userId)
    return new HttpError(
      409,
      'trial_already_used',
      `You already had a free trial of ${plan.name} (${when}). ${buy}`,
      {},
      extra,
    );
  if (earlier.person_hash === who.personHash)
    return new HttpError(
      409,
      'trial_already_used',
      `This e-mail address already had a free trial of ${plan.name} on another account (${when}). ${buy}`,
      {},
      extra,
    );
  return new HttpError(
    409,
    'machine_trial_used',
    `This machine already had a free trial of ${plan.name} (${when}). ${buy}`,
    {},
    extra,
  );
}

/**
 * Free trials without a card: a signed-in customer starts one of a plan that offers it, once per
 * account, per person and per machine; the trial license is active until its end, and activates
 * the machine it was started on.
 */
export function createTrialsService({
  db,
  clock,
  events,
  activation,
}: {
  db: Db;
  clock: Clock;
  /** Announces the trial license issued and started. */
  events: LicensingEvents;
  activation: Pick<ActivationService, 'activateIssued'>;
}) {
  /** The refusal of a trial someone had, or undefined when there is none. */
  async function earlierRefusal(
    who: { userId: string; personHash: string; hardwareId: string | null },
    plan: PlanRow,
  ) {
    const [earlier] = await earlierTrials(db, { ...who, planId: plan.id });
    return earlier ? alreadyTried(earlier, who, plan) : undefined;
  }

  return {
    async start(user: UserRow, body: StartTrialRequest, meta: RequestMeta | null): Promise<TrialStarted> {
      const plan = await findOfferedPlanByIdOrCode(db, body.plan_id);
      if (!plan) throw notFound('plan_not_found', 'This plan is not available');
      if (plan.trial_days <= 0 || plan.billing_interval === 'free' || plan.seat_based === 1)
        throw conflict(
          'trial_not_offered',
          `${plan.name} has no free trial. Buy it on the Purchase page, or choose a plan that offers one.`,
        );
      const now = clock.now();
      const owned = (await licensesOfUser(db, user.id)).find(
        (row) =>
          row.plan_id === plan.id && row.trial_ends_at === null && effectiveStatus(row, now) === 'active',
      );
      if (owned)
        throw conflict(
          'plan_already_owned',
          `You already have a ${plan.name} license, so there is nothing to try: it is on your Licenses page.`,
        );
      const who = {
        userId: user.id,
        personHash: personHash(user.email),
        hardwareId: body.hardware_id ?? null,
      };
      const refused = await earlierRefusal(who, plan);
      if (refused) throw refused;

      const endsAt = utc(now).add(plan.trial_days, 'day').toISOString();
      let license: LicenseRow;
      try {
        license = await db.transaction().execute(async (trx) => {
          const issued = await issueLicense(trx, clock, events, {
            userId: user.id,
            plan,
            expiresAt: endsAt,
            trialEndsAt: endsAt,
            metadata: { trial: true },
          });
          // The unique indexes make the second of two starts at once fail here, on any server.
          await insertTrial(trx, {
            id: randomUUID(),
            license_id: issued.id,
            user_id: user.id,
            plan_id: plan.id,
            person_hash: who.personHash,
            hardware_id: who.hardwareId,
            source: 'account',
            started_at: now.toISOString(),
            ends_at: endsAt,
            converted_at: null,
          });
          await events.publish(trx, { type: 'license.trial_started', license: issued });
          return issued;
        });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        throw (
          (await earlierRefusal(who, plan)) ??
          conflict('trial_already_used', `A free trial of ${plan.name} was started already.`)
        );
      }

      const message = `Your free trial of ${plan.name} has started: ${dayCount(plan.trial_days)}, until ${day(endsAt)}.`;
      if (!body.hardware_id) return { ...(await toLicense(db, license, clock.now())), message };
      const { created: _created, ...activated } = await activation.activateIssued(
        license,
        {
          hardware_id: body.hardware_id,
          device_name: body.device_name,
          platform: body.platform,
          app_version: body.app_version,
        },
        user,
        meta,
      );
      return { ...activated, message: `${message} This machine is activated.` };
    },
  };
}

export type TrialsService = ReturnType<typeof createTrialsService>;
