import { randomUUID } from 'node:crypto';
import type { StartTrialRequest, TrialStarted } from '../../../shared/api/licenses.js';
import { utc } from '../../../shared/dates.js';
import { dayCount, trialAt } from '../../../shared/trial-days.js';
import { findOfferedPlanByIdOrCode } from '../../catalogue/index.js';
import type { Clock } from '../../platform/clock.js';
import type { Db, DialectName } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import type { LicenseRow, PlanRow, UserRow } from '../../platform/db/tables.js';
import type { LicenseTrialRow, MachineTrialRow } from '../../platform/db/tables-trials.js';
import { conflict, HttpError, notFound } from '../../platform/http-error.js';
import { formatDate } from '../../platform/mail/formatting.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import type { LicensingEvents } from '../events.js';
import type { ActivationService } from '../licenses/activation-service.js';
import { issueLicense } from '../licenses/issue.js';
import { licensesOfUser } from '../licenses/repository.js';
import { effectiveStatus, toLicense } from '../licenses/views.js';
import { claimMachineTrial, findMachineTrial, lockMachineTrials } from './machine-repository.js';
import { machineTrialUsed } from './machine-trials.js';
import { offersTrial } from './offer.js';
import { personHash } from './person.js';
import { earlierTrials, insertTrial } from './repository.js';

/** "18 December 2026": a day in an API message, as docs/writing.md has the server write it. */
const day = (iso: string) => formatDate(iso);

/** Why this account cannot start a trial of the plan: an earlier trial, named with when it ran. */
export function alreadyTried(
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
  dialect,
  clock,
  events,
  activation,
}: {
  db: Db;
  /** Which engine: PostgreSQL locks a machine's trials for a start (see lockMachineTrials). */
  dialect: DialectName;
  clock: Clock;
  /** Announces the trial license issued and started. */
  events: LicensingEvents;
  activation: Pick<ActivationService, 'activateIssued'>;
}) {
  /**
   * The machine trial of the plan this account takes over from the machine: one still running that
   * nobody claimed. Undefined without a machine, or when the machine had none.
   */
  async function machineTrialOf(hardwareId: string | null, plan: PlanRow) {
    return hardwareId === null ? undefined : findMachineTrial(db, hardwareId, plan.id);
  }
  const claimable = (trial: MachineTrialRow | undefined): trial is MachineTrialRow =>
    !!trial && trial.claimed_license_id === null && Date.parse(trial.ends_at) > clock.now().getTime();

  /**
   * The refusal of a trial someone had, or undefined when there is none: an account trial of this
   * account, person or machine, or the machine's own trial once it ended or another license took
   * it. A machine trial still running is no refusal: the account takes it over.
   */
  async function earlierRefusal(
    who: { userId: string; personHash: string; hardwareId: string | null },
    plan: PlanRow,
  ) {
    const [earlier] = await earlierTrials(db, { ...who, planId: plan.id });
    if (earlier) return alreadyTried(earlier, who, plan);
    const onMachine = await machineTrialOf(who.hardwareId, plan);
    return onMachine && !claimable(onMachine) ? machineTrialUsed(onMachine, plan) : undefined;
  }

  return {
    async start(user: UserRow, body: StartTrialRequest, meta: RequestMeta | null): Promise<TrialStarted> {
      const plan = await findOfferedPlanByIdOrCode(db, body.plan_id);
      if (!plan) throw notFound('plan_not_found', 'This plan is not available');
      if (!offersTrial(plan))
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

      // Started on a machine that is trying the plan already: the account takes that trial over,
      // with its start and end, instead of a fresh one.
      const machineTrial = await machineTrialOf(who.hardwareId, plan);
      const claimed = claimable(machineTrial) ? machineTrial : undefined;
      const startedAt = claimed?.started_at ?? now.toISOString();
      const endsAt = claimed?.ends_at ?? utc(now).add(plan.trial_days, 'day').toISOString();
      let license: LicenseRow;
      try {
        license = await db.transaction().execute(async (trx) => {
          if (who.hardwareId !== null) await lockMachineTrials(trx, dialect, who.hardwareId);
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
            source: claimed ? 'machine' : 'account',
            started_at: startedAt,
            ends_at: endsAt,
            converted_at: null,
          });
          if (claimed && !(await claimMachineTrial(trx, claimed.id, issued.id, now.toISOString())))
            throw machineTrialUsed(claimed, plan);
          // A machine trial started on the machine meanwhile: looked for again in the transaction
          // (which the machine trial's own mirrors), so of the two at once only one stands.
          const meanwhile =
            claimed || who.hardwareId === null
              ? undefined
              : await findMachineTrial(trx, who.hardwareId, plan.id);
          if (meanwhile) throw machineTrialUsed(meanwhile, plan);
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

      const message = claimed
        ? `Your free trial of ${plan.name} continues on your account: ${dayCount(trialAt(endsAt, clock.now())?.days_left ?? 0)} left, until ${day(endsAt)}.`
        : `Your free trial of ${plan.name} has started: ${dayCount(plan.trial_days)}, until ${day(endsAt)}.`;
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
