import type { Updateable } from 'kysely';
import type { z } from 'zod';
import type { Feature, featureListQuerySchema } from '../../../shared/api/features.js';
import type { Paged } from '../../../shared/api/paging.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import { fetchPage, matchesSearch } from '../../platform/db/paging.js';
import type { FeatureRow, FeaturesTable } from '../../platform/db/tables.js';

export const toFeature = (row: FeatureRow): Feature => ({
  feature_id: row.id,
  key: row.key,
  name: row.name,
  description: row.description,
  kind: row.kind,
  period: row.period,
  unit: row.unit,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

export const findFeatureById = (db: DbOrTransaction, id: string) =>
  db.selectFrom('features').selectAll().where('id', '=', id).executeTakeFirst();

/** A feature named by id or by key, as API callers may use either. */
export const findFeatureByIdOrKey = (db: DbOrTransaction, idOrKey: string) =>
  db
    .selectFrom('features')
    .selectAll()
    .where((eb) => eb.or([eb('id', '=', idOrKey), eb('key', '=', idOrKey)]))
    .executeTakeFirst();

/** Names of the plans that include a feature (they block its deletion). */
export async function plansIncludingFeature(db: DbOrTransaction, featureId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('plan_features')
    .innerJoin('plans', 'plans.id', 'plan_features.plan_id')
    .select('plans.name')
    .where('plan_features.feature_id', '=', featureId)
    .orderBy('plans.name')
    .execute();
  return rows.map((row) => row.name);
}

/** The kind and period of each of the features that exist among `ids`. */
export async function featureKinds(
  db: DbOrTransaction,
  ids: string[],
): Promise<Map<string, Pick<FeatureRow, 'kind' | 'period'>>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('features')
    .select(['id', 'kind', 'period'])
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((row) => [row.id, { kind: row.kind, period: row.period }]));
}

/** One page of the catalogue, by name unless sorted otherwise. */
export async function listFeatures(
  db: DbOrTransaction,
  query: z.output<typeof featureListQuerySchema>,
): Promise<Paged<FeatureRow>> {
  let select = db.selectFrom('features').selectAll();
  if (query.search) select = select.where(matchesSearch(['key', 'name', 'description'], query.search));
  if (query.kind) select = select.where('kind', '=', query.kind);
  const sort = query.sort ?? { field: 'name', direction: 'asc' };
  return fetchPage(select.orderBy(sort.field, sort.direction).orderBy('id'), query);
}

export async function insertFeature(db: DbOrTransaction, row: FeatureRow): Promise<void> {
  await db.insertInto('features').values(row).execute();
}

export const updateFeature = (
  db: DbOrTransaction,
  id: string,
  changes: Updateable<FeaturesTable>,
): Promise<FeatureRow | undefined> =>
  db.updateTable('features').set(changes).where('id', '=', id).returningAll().executeTakeFirst();

/** Deletes the feature; its recorded usage goes with it (the database cascades). */
export async function deleteFeature(db: DbOrTransaction, id: string): Promise<void> {
  await db.deleteFrom('features').where('id', '=', id).execute();
}

/** Every feature by name, with what the statistics show of it. */
export const featureSummaries = (db: DbOrTransaction) =>
  db.selectFrom('features').select(['id', 'key', 'name', 'kind']).orderBy('name').execute();

/** The names of the plans that include each feature, by feature id, in name order. */
export async function planNamesByFeature(db: DbOrTransaction): Promise<Map<string, string[]>> {
  const rows = await db
    .selectFrom('plan_features')
    .innerJoin('plans', 'plans.id', 'plan_features.plan_id')
    .select(['plan_features.feature_id', 'plans.name'])
    .orderBy('plans.name')
    .execute();
  const names = new Map<string, string[]>();
  for (const row of rows) names.set(row.feature_id, [...(names.get(row.feature_id) ?? []), row.name]);
  return names;
}

/** Use of each feature counted in the periods starting at `periodStart`. */
export async function usageByFeature(db: DbOrTransaction, periodStart: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('usage_counters')
    .select(['feature_id', (eb) => eb.fn.sum<number | string>('total').as('used')])
    .where('period_start', '=', periodStart)
    .groupBy('feature_id')
    .execute();
  return new Map(rows.map((row) => [row.feature_id, Number(row.used)]));
}
