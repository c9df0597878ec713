import type { Plan, PlanFeature } from '../../../shared/api/plans.js';
import type { DbOrTransaction } from '../../db/database.js';
import type { PlanRow } from '../../db/tables.js';

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
    });
  }
  return byPlan;
}

export const toPlan = (row: PlanRow, features: PlanFeature[]): Plan => ({
  id: row.id,
  code: row.code,
  name: row.name,
  description: row.description,
  price_minor: row.price_minor,
  currency: row.currency,
  billing_interval: row.billing_interval,
  max_activations: row.max_activations,
  is_public: row.is_public === 1,
  is_active: row.is_active === 1,
  sort_order: row.sort_order,
  features,
  archived_at: row.archived_at,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

export async function withFeatures(db: DbOrTransaction, rows: PlanRow[]): Promise<Plan[]> {
  const features = await featuresOfPlans(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toPlan(row, features.get(row.id) ?? []));
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

/** Plans people can buy or activate: public, active and not archived. */
export const offeredPlans = (db: DbOrTransaction) =>
  db
    .selectFrom('plans')
    .selectAll()
    .where('is_public', '=', 1)
    .where('is_active', '=', 1)
    .where('archived_at', 'is', null);

/**
 * A plan a customer may take, named by id or by code: only one on offer. A hidden, inactive or
 * archived plan reads as unknown, so a customer cannot tell it exists; administrators grant those.
 */
export const findOfferedPlanByIdOrCode = (db: DbOrTransaction, idOrCode: string) =>
  offeredPlans(db)
    .where((eb) => eb.or([eb('id', '=', idOrCode), eb('code', '=', idOrCode)]))
    .executeTakeFirst();
