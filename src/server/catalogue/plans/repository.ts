import type { Insertable, Updateable } from 'kysely';
import type { z } from 'zod';
import type { Paged } from '../../../shared/api/paging.js';
import {
  type CreditPack,
  type Overage,
  type Plan,
  type PlanFeature,
  type PlanPrice,
  type planListQuerySchema,
  STOP_AT_ALLOWANCE,
} from '../../../shared/api/plans.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import { fetchPage, matchesSearch } from '../../platform/db/paging.js';
import type { PlanRow, PlansTable } from '../../platform/db/tables.js';
import { otherPricesOfPlans } from './prices-repository.js';

/** Features and limits of the given plans, grouped by plan id, in a stable order. */
export async function featuresOfPlans(
  db: DbOrTransaction,
  planIds: string[],
): Promise<Map<string, PlanFeature[]>> {
  const byPlan = new Map<string, PlanFeature[]>(planIds.map((id) => [id, []]));
  if (planIds.length === 0) return byPlan;
  const rows = await db
    .selectFrom('plan_features')
    .innerJoin('features', 'features.id', 'plan_features.feature_id')
    .select([
      'plan_features.plan_id',
      'plan_features.limit_value',
      'plan_features.overage_policy',
      'plan_features.overage_price_minor',
      'plan_features.overage_per_units',
      'plan_features.overage_cap',
      'plan_features.pack_units',
      'plan_features.pack_price_minor',
      'features.id',
      'features.key',
      'features.name',
      'features.kind',
      'features.period',
      'features.unit',
    ])
    .where('plan_features.plan_id', 'in', planIds)
    .orderBy('features.name')
    .execute();
  for (const row of rows) {
    byPlan.get(row.plan_id)?.push({
      feature_id: row.id,
      key: row.key,
      name: row.name,
      kind: row.kind,
      period: row.period,
      unit: row.unit,
      limit: row.kind === 'metered' ? row.limit_value : null,
      overage:
        row.kind === 'metered'
          ? {
              policy: row.overage_policy,
              price_minor: row.overage_price_minor,
              per_units: row.overage_per_units,
              cap: row.overage_cap,
            }
          : STOP_AT_ALLOWANCE,
      pack:
        row.kind === 'metered' && row.period && row.pack_units !== null && row.pack_price_minor !== null
          ? { units: row.pack_units, price_minor: row.pack_price_minor }
          : null,
    });
  }
  return byPlan;
}

export const toPlan = (row: PlanRow, features: PlanFeature[], otherPrices: PlanPrice[] = []): Plan => ({
  id: row.id,
  code: row.code,
  name: row.name,
  description: row.description,
  price_minor: row.price_minor,
  currency: row.currency,
  prices: [{ currency: row.currency, price_minor: Number(row.price_minor) }, ...otherPrices],
  billing_interval: row.billing_interval,
  max_activations: row.max_activations,
  seat_based: row.seat_based === 1,
  trial_days: row.trial_days,
  deactivations_per_30_days: row.deactivations_per_30_days,
  fingerprint_threshold: row.fingerprint_threshold,
  is_public: row.is_public === 1,
  is_active: row.is_active === 1,
  is_draft: row.draft === 1,
  update_months: row.update_months,
  renews_updates_of: row.renews_updates_of,
  floating:
    row.floating_seats === null
      ? null
      : {
          seats: row.floating_seats,
          lease_minutes: row.floating_lease_minutes ?? 15,
          max_borrow_days: row.floating_borrow_days ?? 0,
        },
  sort_order: row.sort_order,
  features,
  archived_at: row.archived_at,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

/** The plans as the API shows them: with their features and every price they are sold for. */
export async function withFeatures(db: DbOrTransaction, rows: PlanRow[]): Promise<Plan[]> {
  const ids = rows.map((row) => row.id);
  const [features, prices] = await Promise.all([featuresOfPlans(db, ids), otherPricesOfPlans(db, ids)]);
  return rows.map((row) => toPlan(row, features.get(row.id) ?? [], prices.get(row.id) ?? []));
}

export const findPlanRow = (db: DbOrTransaction, id: string) =>
  db.selectFrom('plans').selectAll().where('id', '=', id).executeTakeFirst();

/** Any plan named by id or by code, hidden ones included: for administrators. */
export const findPlanRowByIdOrCode = (db: DbOrTransaction, idOrCode: string) =>
  db
    .selectFrom('plans')
    .selectAll()
    .where((eb) => eb.or([eb('id', '=', idOrCode), eb('code', '=', idOrCode)]))
    .executeTakeFirst();

export async function findPlan(db: DbOrTransaction, id: string): Promise<Plan | undefined> {
  const row = await findPlanRow(db, id);
  return row ? (await withFeatures(db, [row]))[0] : undefined;
}

/** Plans people can buy or activate: published, public, active and not archived. */
const offeredPlans = (db: DbOrTransaction) =>
  db
    .selectFrom('plans')
    .selectAll()
    .where('draft', '=', 0)
    .where('is_public', '=', 1)
    .where('is_active', '=', 1)
    .where('archived_at', 'is', null);

/**
 * A plan a customer may take, named by id or by code: only one on offer. A draft, hidden, inactive
 * or archived plan reads as unknown, so a customer cannot tell it exists; administrators grant those.
 */
export const findOfferedPlanByIdOrCode = (db: DbOrTransaction, idOrCode: string) =>
  offeredPlans(db)
    .where((eb) => eb.or([eb('id', '=', idOrCode), eb('code', '=', idOrCode)]))
    .executeTakeFirst();

/** Plans on offer in display order. */
export const listOfferedPlans = (db: DbOrTransaction): Promise<PlanRow[]> =>
  offeredPlans(db).orderBy('sort_order').orderBy('price_minor').orderBy('id').execute();

export const findOfferedPlan = (db: DbOrTransaction, id: string): Promise<PlanRow | undefined> =>
  offeredPlans(db).where('id', '=', id).executeTakeFirst();

export const findOfferedPlanByCode = (db: DbOrTransaction, code: string): Promise<PlanRow | undefined> =>
  offeredPlans(db).where('code', '=', code).executeTakeFirst();

export const plansByIds = (db: DbOrTransaction, ids: string[]): Promise<PlanRow[]> =>
  ids.length === 0
    ? Promise.resolve([])
    : db.selectFrom('plans').selectAll().where('id', 'in', ids).execute();

/** What a license shows of its plan. */
export type PlanSummary = Pick<PlanRow, 'id' | 'code' | 'name' | 'billing_interval'>;

/** The plans' summaries as licenses show them, with whether each is floating (its seats' count set). */
export const planSummaries = (
  db: DbOrTransaction,
  ids: string[],
): Promise<(PlanSummary & Pick<PlanRow, 'floating_seats'>)[]> =>
  db
    .selectFrom('plans')
    .select(['id', 'code', 'name', 'billing_interval', 'floating_seats'])
    .where('id', 'in', ids)
    .execute();

/** A plan's summary and the currency it is priced in, as the catalogue's cache keeps them. */
export const findCataloguePlan = (
  db: DbOrTransaction,
  id: string,
): Promise<PlanSummary & Pick<PlanRow, 'currency'>> =>
  db
    .selectFrom('plans')
    .select(['id', 'code', 'name', 'billing_interval', 'currency'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

/** One page of every plan, archived ones included, for administrators. */
export async function listPlans(
  db: DbOrTransaction,
  query: z.output<typeof planListQuerySchema>,
): Promise<Paged<PlanRow>> {
  let select = db.selectFrom('plans').selectAll();
  if (query.search) select = select.where(matchesSearch(['code', 'name', 'description'], query.search));
  if (query.status === 'archived') select = select.where('archived_at', 'is not', null);
  // A draft is neither active nor inactive until it is published.
  if (query.status === 'draft') select = select.where('archived_at', 'is', null).where('draft', '=', 1);
  if (query.status === 'active')
    select = select.where('archived_at', 'is', null).where('draft', '=', 0).where('is_active', '=', 1);
  if (query.status === 'inactive')
    select = select.where('archived_at', 'is', null).where('draft', '=', 0).where('is_active', '=', 0);
  const sort = query.sort ?? { field: 'sort_order', direction: 'asc' };
  return fetchPage(select.orderBy(sort.field, sort.direction).orderBy('id'), query);
}

/** Every plan in display order. */
export const allPlans = (db: DbOrTransaction): Promise<PlanRow[]> =>
  db.selectFrom('plans').selectAll().orderBy('sort_order').orderBy('id').execute();

export async function insertPlan(db: DbOrTransaction, row: Insertable<PlansTable>): Promise<void> {
  await db.insertInto('plans').values(row).execute();
}

export async function updatePlan(
  db: DbOrTransaction,
  id: string,
  changes: Updateable<PlansTable>,
): Promise<void> {
  await db.updateTable('plans').set(changes).where('id', '=', id).execute();
}

/** Publishes the plan if it is still a draft; false when it was not (published meanwhile, or gone). */
export async function publishDraft(db: DbOrTransaction, id: string, nowIso: string): Promise<boolean> {
  const result = await db
    .updateTable('plans')
    .set({ draft: 0, updated_at: nowIso })
    .where('id', '=', id)
    .where('draft', '=', 1)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deletePlan(db: DbOrTransaction, id: string): Promise<void> {
  await db.deleteFrom('plans').where('id', '=', id).execute();
}

/** Replaces the plan's features, their limits and what happens past them. */
export async function replacePlanFeatures(
  db: DbOrTransaction,
  planId: string,
  features: {
    feature_id: string;
    limit: number | null;
    overage?: Overage | undefined;
    pack?: CreditPack | null | undefined;
  }[],
): Promise<void> {
  await db.deleteFrom('plan_features').where('plan_id', '=', planId).execute();
  if (features.length === 0) return;
  await db
    .insertInto('plan_features')
    .values(
      features.map((feature) => ({
        plan_id: planId,
        feature_id: feature.feature_id,
        limit_value: feature.limit,
        overage_policy: feature.overage?.policy ?? 'stop',
        overage_price_minor: feature.overage?.price_minor ?? null,
        overage_per_units: feature.overage?.per_units ?? 1,
        overage_cap: feature.overage?.cap ?? null,
        pack_units: feature.pack?.units ?? null,
        pack_price_minor: feature.pack?.price_minor ?? null,
      })),
    )
    .execute();
}

/** Licenses per plan: all of them, and those usable at `nowIso` (an active row past its expiry is not). */
export async function licenseCountsByPlan(
  db: DbOrTransaction,
  nowIso: string,
): Promise<Map<string, { total: number; active: number }>> {
  const rows = await db
    .selectFrom('licenses')
    .select([
      'plan_id',
      (eb) => eb.fn.countAll<number | string>().as('total'),
      (eb) =>
        eb.fn
          .sum<number | string>(
            eb
              .case()
              .when(
                eb.and([
                  eb('status', '=', 'active'),
                  eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', nowIso)]),
                ]),
              )
              .then(1)
              .else(0)
              .end(),
          )
          .as('active'),
    ])
    .groupBy('plan_id')
    .execute();
  return new Map(
    rows.map((row) => [row.plan_id, { total: Number(row.total), active: Number(row.active ?? 0) }]),
  );
}

/** How many fingerprint components must match on the plan's machines (undefined for an unknown plan). */
export const findFingerprintThreshold = async (
  db: DbOrTransaction,
  id: string,
): Promise<number | undefined> =>
  (await db.selectFrom('plans').select('fingerprint_threshold').where('id', '=', id).executeTakeFirst())
    ?.fingerprint_threshold;
