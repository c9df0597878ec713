import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type {
  createFeatureRequestSchema,
  Feature,
  featureListQuerySchema,
  UpdateFeatureRequest,
} from '../../../shared/api/features.js';
import type { Paged } from '../../../shared/api/paging.js';
import { type Clock, isoNow } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { refuseDuplicate } from '../../platform/db/errors.js';
import { badRequest, conflict, notFound } from '../../platform/http-error.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import { type AdminActor, recordAdminAction } from '../../platform/security-log/service.js';
import {
  deleteFeature,
  featureSummaries,
  findFeatureById,
  insertFeature,
  listFeatures,
  planNamesByFeature,
  plansIncludingFeature,
  toFeature,
  updateFeature,
  usageByFeature,
} from './repository.js';
import { currentPeriodStart } from './usage-periods.js';

type FeatureListQuery = z.output<typeof featureListQuerySchema>;
type CreateFeatureInput = z.output<typeof createFeatureRequestSchema>;

const featureNotFound = () => notFound('feature_not_found', 'Feature not found');
const duplicateKey = (key: string) =>
  conflict('feature_key_taken', `A feature with the key "${key}" already exists`);

/** What the services that change the catalogue (features and plans) are made from. */
export interface CatalogueServiceDeps {
  db: Db;
  clock: Clock;
  /** Told after every change, so cached copies of the catalogue are dropped. */
  onCatalogueChange?: () => void;
}

/** Administrators' catalogue of entitlements (`/admin/features`). */
export function createFeaturesService({
  db,
  clock,
  onCatalogueChange = () => undefined,
}: CatalogueServiceDeps) {
  async function existing(id: string) {
    const row = await findFeatureById(db, id);
    if (!row) throw featureNotFound();
    return row;
  }

  return {
    async list(query: FeatureListQuery): Promise<Paged<Feature>> {
      const page = await listFeatures(db, query);
      return { ...page, data: page.data.map(toFeature) };
    },

    get: async (id: string): Promise<Feature> => toFeature(await existing(id)),

    async create(input: CreateFeatureInput, actor: AdminActor): Promise<Feature> {
      const now = isoNow(clock);
      const row = {
        id: randomUUID(),
        key: input.key,
        name: input.name,
        description: input.description,
        kind: input.kind,
        period: input.kind === 'metered' ? (input.period ?? 'month') : null,
        unit: input.unit ?? null,
        created_at: now,
        updated_at: now,
      };
      await refuseDuplicate(
        () =>
          db.transaction().execute(async (trx) => {
            await insertFeature(trx, row);
            await recordAdminAction(trx, clock, actor, {
              type: securityEventTypes.featureCreated,
              severity: 'info',
              userId: null,
              details: { feature_id: row.id, key: row.key },
            });
          }),
        () => duplicateKey(input.key),
      );
      return toFeature(row);
    },

    async update(id: string, changes: UpdateFeatureRequest, actor: AdminActor): Promise<Feature> {
      const current = await existing(id);
      const kind = changes.kind ?? current.kind;
      if (kind === 'boolean' && changes.period) {
        throw badRequest('validation_error', 'An on/off feature has no usage period');
      }
      const period = kind === 'boolean' ? null : (changes.period ?? current.period ?? 'month');
      const updated = await refuseDuplicate(
        () =>
          db.transaction().execute(async (trx) => {
            const row = await updateFeature(trx, id, {
              key: changes.key ?? current.key,
              name: changes.name ?? current.name,
              description: changes.description ?? current.description,
              kind,
              period,
              unit: changes.unit === undefined ? current.unit : changes.unit,
              updated_at: isoNow(clock),
            });
            if (!row) throw featureNotFound();
            await recordAdminAction(trx, clock, actor, {
              type: securityEventTypes.featureUpdated,
              severity: 'info',
              userId: null,
              details: { feature_id: id, key: row.key, changes },
            });
            return row;
          }),
        () => duplicateKey(changes.key ?? current.key),
      );
      onCatalogueChange();
      return toFeature(updated);
    },

    /** Deletes a feature no plan includes; its recorded usage goes with it. */
    async remove(id: string, actor: AdminActor): Promise<void> {
      const current = await existing(id);
      const plans = await plansIncludingFeature(db, id);
      if (plans.length > 0) {
        throw conflict(
          'feature_in_use',
          `This feature is included in ${plans.join(', ')}. Remove it from ${plans.length === 1 ? 'that plan' : 'those plans'} first.`,
        );
      }
      await db.transaction().execute(async (trx) => {
        await deleteFeature(trx, id);
        await recordAdminAction(trx, clock, actor, {
          type: securityEventTypes.featureDeleted,
          severity: 'warning',
          userId: null,
          details: { feature_id: id, key: current.key, name: current.name },
        });
      });
    },

    async stats() {
      const [features, plansOf, usedOf] = await Promise.all([
        featureSummaries(db),
        planNamesByFeature(db),
        usageByFeature(db, currentPeriodStart('month', clock.now())),
      ]);
      return {
        total: features.length,
        boolean: features.filter((feature) => feature.kind === 'boolean').length,
        metered: features.filter((feature) => feature.kind === 'metered').length,
        by_feature: features.map((feature) => ({
          feature_id: feature.id,
          key: feature.key,
          name: feature.name,
          plans: plansOf.get(feature.id)?.length ?? 0,
          plan_names: plansOf.get(feature.id) ?? [],
          usage_this_month: usedOf.get(feature.id) ?? 0,
        })),
      };
    },
  };
}

export type FeaturesService = ReturnType<typeof createFeaturesService>;
