import type { LicensingEvents } from '../events.js';
import type { z } from 'zod';
import type { activatePlanRequestSchema, License } from '../../../shared/api/licenses.js';
import { BASE_PLAN_CODE, type Plan } from '../../../shared/api/plans.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { LicenseRow, UserRow } from '../../platform/db/tables.js';
import { conflict, HttpError, notFound } from '../../platform/http-error.js';
import { findOfferedPlanByIdOrCode, plansByIds, withFeatures } from '../../catalogue/index.js';
import { createLicenseAccess, licenseNotFound } from './access.js';
import { ensureBaseLicense, issueLicense } from './issue.js';
import { expiryAfterInterval } from './periods.js';
import { countSeatsInUse, licensesOfUser, seatLicensesOfUser, updateLicense } from './repository.js';
import { effectiveStatus, toLicense } from './views.js';

type ActivatePlanInput = z.output<typeof activatePlanRequestSchema>;

const planUnavailable = () => notFound('plan_not_found', 'This plan is not available');
const paymentRequired = (plan: { name: string }) =>
  new HttpError(
    402,
    'payment_required',
    `${plan.name} is a paid plan: buy it on the Purchase page to activate it.`,
  );

/** Which plans a user's licenses are on: taking a free plan, the current plan, moving a license. */
export function createLicensePlanService({
  db,
  clock,
  events,
}: {
  db: Db;
  clock: Clock;
  /** Announces the licenses issued. */
  events: LicensingEvents;
}) {
  const access = createLicenseAccess({ db, clock });

  return {
    /** Activates a plan for the user: free plans at once; paid plans need a payment (see payments). */
    async activatePlan(
      user: UserRow,
      body: ActivatePlanInput,
    ): Promise<{ license: License; created: boolean }> {
      const plan = await findOfferedPlanByIdOrCode(db, body.planId);
      if (!plan) throw planUnavailable();
      if (plan.price_minor > 0) throw paymentRequired(plan);
      if (plan.code === BASE_PLAN_CODE) {
        const { row, created } = await ensureBaseLicense(db, clock, events, user.id);
        return { license: await toLicense(db, row, clock.now()), created };
      }
      const existing = (await licensesOfUser(db, user.id)).find(
        (row) => row.plan_id === plan.id && effectiveStatus(row, clock.now()) === 'active',
      );
      if (existing) return { license: await toLicense(db, existing, clock.now()), created: false };
      const row = await issueLicense(db, clock, events, { userId: user.id, plan, metadata: body.userInfo });
      return { license: await toLicense(db, row, clock.now()), created: true };
    },

    /** The plan of the user's best active license: the priciest, then the newest. */
    async currentPlan(user: UserRow): Promise<{ plan: Plan | null; license: License | null }> {
      const now = clock.now();
      // A seat of an organisation's license gives its plan as much as a license of one's own.
      const [own, seats] = await Promise.all([licensesOfUser(db, user.id), seatLicensesOfUser(db, user.id)]);
      const active = [...own, ...seats].filter((row) => effectiveStatus(row, now) === 'active');
      if (active.length === 0) return { plan: null, license: null };
      const plans = await withFeatures(
        db,
        await plansByIds(db, [...new Set(active.map((row) => row.plan_id))]),
      );
      const priceOf = (row: LicenseRow) => plans.find((plan) => plan.id === row.plan_id)?.price_minor ?? 0;
      const best = active.toSorted(
        (a, b) => priceOf(b) - priceOf(a) || b.created_at.localeCompare(a.created_at),
      )[0] as LicenseRow;
      return {
        plan: plans.find((plan) => plan.id === best.plan_id) ?? null,
        license: await toLicense(db, best, now, best.user_id === user.id ? {} : { viewerId: user.id }),
      };
    },

    /** Moves a license to another plan: its plan_id and subscription_id change. */
    async changePlan(user: UserRow, id: string, planId: string): Promise<License> {
      const row = await access.own(user, id);
      access.assertActive(row);
      const plan = await findOfferedPlanByIdOrCode(db, planId);
      if (!plan) throw planUnavailable();
      if (plan.id === row.plan_id) return toLicense(db, row, clock.now());
      if (plan.price_minor > 0) throw paymentRequired(plan);
      if (row.base_owner_id)
        throw conflict(
          'base_license_fixed',
          'The free Base license stays on the Base plan; activate another plan instead',
        );
      const updated = await db.transaction().execute(async (trx) => {
        const used = await countSeatsInUse(trx, row.id);
        if (used > plan.max_activations) {
          throw conflict(
            'too_many_activations',
            `${plan.name} allows ${plan.max_activations} machine${plan.max_activations === 1 ? '' : 's'}, but this license is active on ${used}. Deactivate ${used - plan.max_activations} first.`,
          );
        }
        const moved = await updateLicense(trx, row.id, {
          plan_id: plan.id,
          subscription_id: null,
          max_activations: plan.max_activations,
          expires_at: expiryAfterInterval(plan.billing_interval, clock.now()),
          updated_at: clock.now().toISOString(),
        });
        if (!moved) throw licenseNotFound();
        return moved;
      });
      return toLicense(db, updated, clock.now());
    },
  };
}

export type LicensePlanService = ReturnType<typeof createLicensePlanService>;
