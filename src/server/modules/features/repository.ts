import type { Feature } from '../../../shared/api/features.js';
import type { DbOrTransaction } from '../../db/database.js';
import type { FeatureRow } from '../../db/tables.js';

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
