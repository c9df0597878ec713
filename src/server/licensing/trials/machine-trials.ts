import { randomUUID } from 'node:crypto';
import type { MachineTrial, StartMachineTrialRequest } from '../../../shared/api/machine-trials.js';
import { utc } from '../../../shared/dates.js';
import { dayCount, trialAt } from '../../../shared/trial-days.js';
import {
  featuresOfPlans,
  findOfferedPlanByIdOrCode,
  findPlanRowByIdOrCode,
  listOfferedPlans,
} from '../../catalogue/index.js';
import type { Clock } from '../../platform/clock.js';
import type { Db, DialectName } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import type { PlanRow } from '../../platform/db/tables.js';
import type { MachineTrialRow } from '../../platform/db/tables-trials.js';
import { conflict, HttpError, notFound } from '../../platform/http-error.js';
import type { LeaseSigner } from '../leases/lease-signer.js';
import { longDateFormat } from '../usage/feature-usage.js';
import {
  accountTrialOnMachine,
  findMachineTrial,
  insertMachineTrial,
  lockMachineTrials,
} from './machine-repository.js';
import { offersTrial } from './offer.js';

const day = (iso: string) => longDateFormat.format(new Date(iso));

/** The refusal of a machine whose trial of the plan ran already (a machine trial or an account's). */
export function machineTrialUsed(earlier: { started_at: string; ends_at: string }, plan: PlanRow): HttpError {
  return new HttpError(
    409,
    'machine_trial_used',
    `This machine already had a free trial of ${plan.name} (from ${day(earlier.started_at)} to ${day(earlier.ends_at)}). ` +
      `Buy ${plan.name} on the Purchase page to keep using it.`,
    {},
    { earlier_trial: { started_at: earlier.started_at, ends_at: earlier.ends_at } },
  );
}

const machineTrialClaimed = (earlier: MachineTrialRow, plan: PlanRow) =>
  new HttpError(
    409,
    'machine_trial_claimed',
    `This machine's free trial of ${plan.name} is on an account now: sign in to keep using it.`,
    {},
    { earlier_trial: { started_at: earlier.started_at, ends_at: earlier.ends_at } },
  );

/**
 * Machine trials: the desktop app tries a plan before any account exists, with nothing but its
 * hardware id. One per machine and plan, ever: asking again while it runs answers the same trial
 * (a reinstall gets it back), after its end, or once an account or a paid license took it over, it
 * is refused, and so is a machine that had an account trial of the plan. The server's clock sets
 * the end; the answer is a signed lease that never outlives it.
 */
export function createMachineTrialsService({
  db,
  dialect,
  clock,
  leases,
}: {
  db: Db;
  dialect: DialectName;
  clock: Clock;
  leases: LeaseSigner;
}) {
  /** The plan asked for, which must offer a trial; or the lowest-priced plan on offer that does. */
  async function planToTry(planId: string | undefined): Promise<PlanRow> {
    if (planId) {
      const plan = await findOfferedPlanByIdOrCode(db, planId);
      if (!plan) throw notFound('plan_not_found', 'This plan is not available');
      if (!offersTrial(plan))
        throw conflict(
          'trial_not_offered',
          `${plan.name} has no free trial. Buy it on the Purchase page, or choose a plan that offers one.`,
        );
      return plan;
    }
    const [cheapest] = (await listOfferedPlans(db))
      .filter(offersTrial)
      .toSorted((a, b) => a.price_minor - b.price_minor || a.sort_order - b.sort_order);
    if (!cheapest)
      throw conflict(
        'trial_not_offered',
        'No plan offers a free trial at the moment. See the plans on the Purchase page.',
      );
    return cheapest;
  }

  async function answer(row: MachineTrialRow, plan: PlanRow, created: boolean): Promise<MachineTrial> {
    const trial = trialAt(row.ends_at, clock.now()) ?? { ends_at: row.ends_at, days_left: 0 };
    const features = (await featuresOfPlans(db, [plan.id])).get(plan.id) ?? [];
    const summary = { id: plan.id, code: plan.code, name: plan.name };
    const signed = await leases.sign({
      licenseId: row.id,
      licenseKey: null,
      hardwareId: row.hardware_id,
      plan: summary,
      features: features.map((feature) => ({ key: feature.key, kind: feature.kind, limit: feature.limit })),
      licenseExpiresAt: row.ends_at,
      trial,
      machineTrial: true,
    });

    return {
      machine_trial_id: row.id,
      plan: summary,
      started_at: row.started_at,
      trial,
      lease: signed.lease,
      lease_expires_at: signed.expiresAt,
      message: created
        ? `Your free trial of ${plan.name} has started: ${dayCount(plan.trial_days)}, until ${day(row.ends_at)}. Create an account to keep it.`
        : // What the app's status check shows, as a license's says "Free trial: 9 days left".
          `Free trial of ${plan.name}: ${dayCount(trial.days_left)} left`,
    };
  }

  /** The machine's existing trial: the same one while it runs, else why there is none. */
  function again(row: MachineTrialRow, plan: PlanRow): Promise<MachineTrial> {
    if (row.claimed_license_id !== null) throw machineTrialClaimed(row, plan);
    if (Date.parse(row.ends_at) <= clock.now().getTime()) throw machineTrialUsed(row, plan);
    return answer(row, plan, false);
  }

  return {
    async start(body: StartMachineTrialRequest): Promise<{ trial: MachineTrial; created: boolean }> {
      const hardwareId = body.hardware_id;
      // The machine's trial of a named plan is answered as it is, even once the plan stopped
      // offering trials (or went off sale): a trial started is the machine's until its end.
      const named = body.plan_id ? await findPlanRowByIdOrCode(db, body.plan_id) : undefined;
      const running = named ? await findMachineTrial(db, hardwareId, named.id) : undefined;
      if (named && running) return { trial: await again(running, named), created: false };
      const plan = await planToTry(body.plan_id);
      const existing = await findMachineTrial(db, hardwareId, plan.id);
      if (existing) return { trial: await again(existing, plan), created: false };
      const accountTrial = await accountTrialOnMachine(db, hardwareId, plan.id);
      if (accountTrial) throw machineTrialUsed(accountTrial, plan);

      const now = clock.now();
      const row: MachineTrialRow = {
        id: randomUUID(),
        hardware_id: hardwareId,
        plan_id: plan.id,
        started_at: now.toISOString(),
        ends_at: utc(now).add(plan.trial_days, 'day').toISOString(),
        claimed_license_id: null,
        claimed_at: null,
      };
      try {
        await db.transaction().execute(async (trx) => {
          await lockMachineTrials(trx, dialect, hardwareId);
          await insertMachineTrial(trx, row);
          // An account trial started on the machine meanwhile: looked for again in the transaction
          // (which the account trial's own mirrors), so of the two at once only one stands.
          const meanwhile = await accountTrialOnMachine(trx, hardwareId, plan.id);
          if (meanwhile) throw machineTrialUsed(meanwhile, plan);
        });
      } catch (error) {
        // Two starts at once, on any server: the unique index keeps the first, and both answer it.
        if (!isUniqueViolation(error)) throw error;
        const first = await findMachineTrial(db, hardwareId, plan.id);
        if (!first) throw error;
        return { trial: await again(first, plan), created: false };
      }
      return { trial: await answer(row, plan, true), created: true };
    },
  };
}

export type MachineTrialsService = ReturnType<typeof createMachineTrialsService>;
