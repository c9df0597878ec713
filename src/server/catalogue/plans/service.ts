import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Paged } from '../../../shared/api/paging.js';
import type {
  createPlanRequestSchema,
  Plan,
  planListQuerySchema,
  updatePlanRequestSchema,
} from '../../../shared/api/plans.js';
import { type PlanPrice, updateWindowProblem } from '../../../shared/api/plans.js';
import { isoNow } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import { isForeignKeyViolation, refuseDuplicate } from '../../platform/db/errors.js';
import { badRequest, conflict, notFound } from '../../platform/http-error.js';
import { featureKinds } from '../features/repository.js';
import type { CatalogueServiceDeps } from '../features/service.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import { type AdminActor, recordAdminAction } from '../../platform/security-log/service.js';
import {
  allPlans,
  deletePlan,
  findOfferedPlan,
  findPlan,
  findPlanRow,
  insertPlan,
  licenseCountsByPlan,
  listOfferedPlans,
  listPlans,
  publishDraft,
  replacePlanFeatures,
  updatePlan,
  withFeatures,
} from './repository.js';
import { replaceOtherPrices } from './prices-repository.js';

type PlanListQuery = z.output<typeof planListQuerySchema>;
type CreatePlanInput = z.output<typeof createPlanRequestSchema>;
type UpdatePlanInput = z.output<typeof updatePlanRequestSchema>;
type PlanFeaturesInput = CreatePlanInput['features'];

/** A floating plan's seats as the plan's columns; null clears them (node-locked). */
const floatingColumns = (floating: CreatePlanInput['floating']) => ({
  floating_seats: floating?.seats ?? null,
  floating_lease_minutes: floating?.lease_minutes ?? null,
  floating_borrow_days: floating?.max_borrow_days ?? null,
});

const planNotFound = () => notFound('plan_not_found', 'Plan not found');
const withoutFeatures = () =>
  conflict(
    'plan_without_features',
    'Choose at least one feature for this plan first: a plan on sale must include something.',
  );
const duplicateCode = (code: string) =>
  conflict('plan_code_taken', `A plan with the code "${code}" already exists`);

/** Replaces the plan's features, refusing ids that name no feature. */
async function replaceFeatures(
  db: DbOrTransaction,
  planId: string,
  features: PlanFeaturesInput,
): Promise<void> {
  const ids = features.map((feature) => feature.feature_id);
  const kinds = await featureKinds(db, ids);
  const missing = ids.filter((id) => !kinds.has(id));
  if (missing.length > 0) throw badRequest('unknown_feature', `Unknown feature: ${missing.join(', ')}`);
  for (const feature of features) {
    const kind = kinds.get(feature.feature_id);
    // A pack's units are drawn per period's use: a metered feature with a period.
    if (feature.pack && (kind?.kind !== 'metered' || !kind.period))
      throw badRequest(
        'pack_without_period',
        'A credit pack can be sold only for a metered feature counted per day or month',
      );
    if (!feature.overage || feature.overage.policy === 'stop') continue;
    // Use over an allowance needs an allowance to pass: a metered feature with a limit.
    if (kind?.kind !== 'metered' || feature.limit === null)
      throw badRequest(
        'overage_without_allowance',
        'Use over the allowance can be billed only for a metered feature with a limit',
      );
  }
  await replacePlanFeatures(db, planId, features);
}

/**
 * An update renewal must name a perpetual plan (one with months of updates that renews nothing
 * itself), and not itself: refused with 400 otherwise.
 */
async function refuseUnrenewable(
  db: DbOrTransaction,
  planId: string,
  plan: {
    billing_interval: Plan['billing_interval'];
    update_months: number | null;
    renews_updates_of: string | null;
  },
): Promise<void> {
  const problem = updateWindowProblem(plan);
  if (problem) throw badRequest('validation_error', problem);
  if (plan.renews_updates_of === null) return;
  const renewed =
    plan.renews_updates_of === planId ? undefined : await findPlanRow(db, plan.renews_updates_of);
  if (!renewed || renewed.update_months === null || renewed.renews_updates_of !== null)
    throw badRequest(
      'not_a_perpetual_plan',
      'An update renewal renews the updates of a perpetual plan: choose a plan that has months of updates',
    );
}

/** What a plan is priced in, as it would be after a change: its own price, the others, and its features. */
interface PlanPricing {
  currency: string;
  price_minor: number;
  other_prices: PlanPrice[];
  features: CreatePlanInput['features'] | Plan['features'];
}

/** Plans (the admin console calls them packages): the public catalogue and its administration. */
export interface PlansServiceDeps extends CatalogueServiceDeps {
  /** The currencies the payment account takes (PAYMENT_CURRENCIES): the only ones a plan may be priced in. */
  paymentCurrencies: readonly string[];
  /**
   * The currencies live subscriptions of a plan are charged in: billing's answer, given at
   * composition. A plan must keep a price in each.
   */
  currenciesInUse: (planId: string) => Promise<string[]>;
  /**
   * Whether any license refers to the plan, which licensing answers (supplied at composition):
   * such a plan is archived instead of deleted.
   */
  planInUse: (planId: string) => Promise<boolean>;
}

export function createPlansService({
  db,
  clock,
  onCatalogueChange = () => undefined,
  paymentCurrencies,
  currenciesInUse,
  planInUse,
}: PlansServiceDeps) {
  /** A plan priced in a currency the payment account does not take could be shown but never bought. */
  function refuseUnpayableCurrency(currency: string | undefined): void {
    if (currency !== undefined && !paymentCurrencies.includes(currency))
      throw badRequest(
        'unsupported_currency',
        `Plans are priced in ${paymentCurrencies.join(', ')}, the currencies payments are taken in; ${currency} cannot be charged.`,
      );
  }

  /**
   * A plan's prices in other currencies must be ones payments are taken in, not its own again, on
   * a paid plan that bills no overage (overage is added to a subscription's charges in the plan's
   * own currency); and every currency its live subscriptions are charged in keeps a price.
   */
  async function refuseUnsellablePrices(planId: string | undefined, plan: PlanPricing): Promise<void> {
    for (const price of plan.other_prices) refuseUnpayableCurrency(price.currency);
    if (plan.other_prices.some((price) => price.currency === plan.currency))
      throw badRequest(
        'validation_error',
        `${plan.currency} is the plan's own currency: its price is the plan's price, not another one`,
      );
    if (plan.other_prices.length > 0 && plan.price_minor === 0)
      throw badRequest('validation_error', 'A free plan has no prices in other currencies');
    const billsOverage = plan.features.some(
      (feature) => feature.overage && feature.overage.policy !== 'stop',
    );
    if (plan.other_prices.length > 0 && billsOverage)
      throw badRequest(
        'overage_in_own_currency',
        `Use over the allowance is billed with a subscription's charges in the plan's own currency, so a plan that bills it is sold in ${plan.currency} only`,
      );
    if (!planId) return;
    const priced = new Set([plan.currency, ...plan.other_prices.map((price) => price.currency)]);
    const orphaned = (await currenciesInUse(planId)).filter((currency) => !priced.has(currency));
    if (orphaned.length > 0)
      throw conflict(
        'price_in_use',
        `Subscriptions of this plan are charged in ${orphaned.join(', ')}: keep a price in ${orphaned.length === 1 ? 'it' : 'each'} (change it instead of removing it)`,
      );
  }

  async function existing(id: string): Promise<Plan> {
    const plan = await findPlan(db, id);
    if (!plan) throw planNotFound();
    return plan;
  }

  return {
    async listPublic(): Promise<Plan[]> {
      return withFeatures(db, await listOfferedPlans(db));
    },

    async getPublic(id: string): Promise<Plan> {
      const row = await findOfferedPlan(db, id);
      if (!row) throw planNotFound();
      return (await withFeatures(db, [row]))[0] as Plan;
    },

    async list(query: PlanListQuery): Promise<Paged<Plan>> {
      const page = await listPlans(db, query);
      return { ...page, data: await withFeatures(db, page.data) };
    },

    get: existing,

    async create(input: CreatePlanInput, actor: AdminActor): Promise<Plan> {
      refuseUnpayableCurrency(input.currency);
      await refuseUnsellablePrices(undefined, input);
      const id = randomUUID();
      await refuseUnrenewable(db, id, input);
      const now = isoNow(clock);
      await refuseDuplicate(
        () =>
          db.transaction().execute(async (trx) => {
            await insertPlan(trx, {
              id,
              code: input.code,
              name: input.name,
              description: input.description,
              price_minor: input.price_minor,
              currency: input.currency,
              billing_interval: input.billing_interval,
              max_activations: input.max_activations,
              trial_days: input.trial_days,
              deactivations_per_30_days: input.deactivations_per_30_days,
              fingerprint_threshold: input.fingerprint_threshold,
              is_public: input.is_public ? 1 : 0,
              is_active: input.is_active ? 1 : 0,
              sort_order: input.sort_order,
              archived_at: null,
              seat_based: 0,
              // Not on sale until published, once it has its features.
              draft: 1,
              update_months: input.update_months,
              renews_updates_of: input.renews_updates_of,
              ...floatingColumns(input.floating),
              created_at: now,
              updated_at: now,
            });
            await replaceFeatures(trx, id, input.features);
            await replaceOtherPrices(trx, id, input.other_prices, now);
            await recordAdminAction(trx, clock, actor, {
              type: securityEventTypes.planCreated,
              severity: 'info',
              userId: null,
              details: {
                plan_id: id,
                code: input.code,
                price_minor: input.price_minor,
                currency: input.currency,
                other_prices: input.other_prices,
              },
            });
          }),
        () => duplicateCode(input.code),
      );
      return existing(id);
    },

    async update(id: string, changes: UpdatePlanInput, actor: AdminActor): Promise<Plan> {
      const current = await existing(id);
      if (changes.currency !== current.currency) refuseUnpayableCurrency(changes.currency);
      const price = changes.price_minor ?? current.price_minor;
      if (changes.currency || changes.other_prices || changes.features || changes.price_minor !== undefined)
        await refuseUnsellablePrices(id, {
          currency: changes.currency ?? current.currency,
          price_minor: price,
          other_prices: changes.other_prices ?? current.prices.slice(1),
          features: changes.features ?? current.features,
        });
      const interval = changes.billing_interval ?? current.billing_interval;
      if ((interval === 'free') !== (price === 0)) {
        throw badRequest('validation_error', 'A free plan has price 0 and a paid plan a price above 0');
      }
      if (interval === 'free' && (changes.trial_days ?? current.trial_days) > 0)
        throw badRequest('validation_error', 'A free plan has no trial: set trial days to 0');
      if (
        changes.update_months !== undefined ||
        changes.renews_updates_of !== undefined ||
        changes.billing_interval
      )
        await refuseUnrenewable(db, id, {
          billing_interval: interval,
          update_months: changes.update_months === undefined ? current.update_months : changes.update_months,
          renews_updates_of:
            changes.renews_updates_of === undefined ? current.renews_updates_of : changes.renews_updates_of,
        });
      // A published plan is sold for what it includes: it cannot be emptied.
      if (!current.is_draft && changes.features?.length === 0) throw withoutFeatures();
      await refuseDuplicate(
        () =>
          db.transaction().execute(async (trx) => {
            const { features, other_prices, is_public, is_active, floating, ...fields } = changes;
            const now = isoNow(clock);
            await updatePlan(trx, id, {
              ...fields,
              ...(floating === undefined ? {} : floatingColumns(floating)),
              ...(is_public === undefined ? {} : { is_public: is_public ? 1 : 0 }),
              ...(is_active === undefined ? {} : { is_active: is_active ? 1 : 0 }),
              updated_at: now,
            });
            if (features) await replaceFeatures(trx, id, features);
            if (other_prices) await replaceOtherPrices(trx, id, other_prices, now);
            await recordAdminAction(trx, clock, actor, {
              type: securityEventTypes.planUpdated,
              severity: 'info',
              userId: null,
              details: { plan_id: id, code: changes.code ?? current.code, changes },
            });
          }),
        () => duplicateCode(changes.code ?? current.code),
      );
      onCatalogueChange();
      return existing(id);
    },

    /**
     * Puts a draft on sale: it must include at least one feature and be priced in the currency
     * payments are taken in. Publishing a published plan answers it as it is.
     */
    async publish(id: string, actor: AdminActor): Promise<Plan> {
      const current = await existing(id);
      if (current.archived_at)
        throw conflict('plan_archived', 'This plan is archived; archived plans are not sold again.');
      if (!current.is_draft) return current;
      if (current.features.length === 0) throw withoutFeatures();
      refuseUnpayableCurrency(current.currency);
      await db.transaction().execute(async (trx) => {
        // Conditional, so two administrators publishing at once record it once.
        const published = await publishDraft(trx, id, isoNow(clock));
        if (!published) return;
        await recordAdminAction(trx, clock, actor, {
          type: securityEventTypes.planUpdated,
          severity: 'info',
          userId: null,
          details: { plan_id: id, code: current.code, changes: { published: true } },
        });
      });
      onCatalogueChange();
      return existing(id);
    },

    /** Deletes a plan no license refers to; one with licenses is archived instead, so they keep working. */
    async remove(
      id: string,
      actor: AdminActor,
    ): Promise<{ id: string; outcome: 'deleted' | 'archived'; message: string }> {
      const row = await findPlanRow(db, id);
      if (!row) throw planNotFound();
      const inUse = await planInUse(id);
      const recordRemoval = (trx: DbOrTransaction, outcome: 'deleted' | 'archived') =>
        recordAdminAction(trx, clock, actor, {
          type: securityEventTypes.planDeleted,
          severity: 'warning',
          userId: null,
          details: { plan_id: id, code: row.code, name: row.name, outcome },
        });
      if (!inUse) {
        try {
          await db.transaction().execute(async (trx) => {
            await deletePlan(trx, id);
            await recordRemoval(trx, 'deleted');
          });
          onCatalogueChange();
          return { id, outcome: 'deleted', message: `Plan ${row.name} deleted` };
        } catch (error) {
          // A license of the plan was issued a moment ago: archive it like any plan in use.
          if (!isForeignKeyViolation(error)) throw error;
        }
      }
      const now = isoNow(clock);
      await db.transaction().execute(async (trx) => {
        await updatePlan(trx, id, {
          archived_at: row.archived_at ?? now,
          is_active: 0,
          is_public: 0,
          updated_at: now,
        });
        await recordRemoval(trx, 'archived');
      });
      onCatalogueChange();
      return {
        id,
        outcome: 'archived',
        message: `Plan ${row.name} has licenses, so it was archived: it is no longer offered and its licenses keep working`,
      };
    },

    async stats() {
      const [plans, byPlan] = await Promise.all([allPlans(db), licenseCountsByPlan(db, isoNow(clock))]);
      return {
        total: plans.length,
        active: plans.filter((plan) => plan.is_active === 1 && plan.draft === 0 && !plan.archived_at).length,
        draft: plans.filter((plan) => plan.draft === 1 && !plan.archived_at).length,
        public: plans.filter((plan) => plan.is_public === 1 && !plan.archived_at).length,
        archived: plans.filter((plan) => plan.archived_at).length,
        by_plan: plans.map((plan) => ({
          plan_id: plan.id,
          code: plan.code,
          name: plan.name,
          active_licenses: byPlan.get(plan.id)?.active ?? 0,
          total_licenses: byPlan.get(plan.id)?.total ?? 0,
        })),
      };
    },
  };
}

export type PlansService = ReturnType<typeof createPlansService>;
