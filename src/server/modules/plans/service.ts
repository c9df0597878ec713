import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Paged } from '../../../shared/api/paging.js';
import type {
  createPlanRequestSchema,
  Plan,
  planListQuerySchema,
  updatePlanRequestSchema,
} from '../../../shared/api/plans.js';
import { type Clock, isoNow } from '../../clock.js';
import type { Db, DbOrTransaction } from '../../db/database.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.js';
import { fetchPage, matchesSearch } from '../../db/paging.js';
import { badRequest, conflict, notFound } from '../../http-error.js';
import { type AdminActor, recordAdminAction } from '../admin/audit.js';
import { securityEventTypes } from '../security/security-events.js';
import { findPlan, findPlanRow, offeredPlans, withFeatures } from './repository.js';

type PlanListQuery = z.output<typeof planListQuerySchema>;
type CreatePlanInput = z.output<typeof createPlanRequestSchema>;
type UpdatePlanInput = z.output<typeof updatePlanRequestSchema>;
type PlanFeaturesInput = CreatePlanInput['features'];

const planNotFound = () => notFound('plan_not_found', 'Plan not found');
const duplicateCode = (code: string) =>
  conflict('plan_code_taken', `A plan with the code "${code}" already exists`);

async function replaceFeatures(
  db: DbOrTransaction,
  planId: string,
  features: PlanFeaturesInput,
): Promise<void> {
  const ids = features.map((feature) => feature.feature_id);
  if (ids.length > 0) {
    const known = await db.selectFrom('features').select('id').where('id', 'in', ids).execute();
    const missing = ids.filter((id) => !known.some((row) => row.id === id));
    if (missing.length > 0) throw badRequest('unknown_feature', `Unknown feature: ${missing.join(', ')}`);
  }
  await db.deleteFrom('plan_features').where('plan_id', '=', planId).execute();
  if (ids.length > 0) {
    await db
      .insertInto('plan_features')
      .values(
        features.map((feature) => ({
          plan_id: planId,
          feature_id: feature.feature_id,
          limit_value: feature.limit,
        })),
      )
      .execute();
  }
}

/** Plans (the admin console calls them packages): the public catalogue and its administration. */
export function createPlansService({
  db,
  clock,
  onCatalogueChange = () => undefined,
}: {
  db: Db;
  clock: Clock;
  /** Told after every change, so cached copies of the catalogue are dropped. */
  onCatalogueChange?: () => void;
}) {
  async function existing(id: string): Promise<Plan> {
    const plan = await findPlan(db, id);
    if (!plan) throw planNotFound();
    return plan;
  }

  return {
    async listPublic(): Promise<Plan[]> {
      return withFeatures(
        db,
        await offeredPlans(db).orderBy('sort_order').orderBy('price_minor').orderBy('id').execute(),
      );
    },

    async getPublic(id: string): Promise<Plan> {
      const row = await offeredPlans(db).where('id', '=', id).executeTakeFirst();
      if (!row) throw planNotFound();
      return (await withFeatures(db, [row]))[0] as Plan;
    },

    async list(query: PlanListQuery): Promise<Paged<Plan>> {
      let select = db.selectFrom('plans').selectAll();
      if (query.search) select = select.where(matchesSearch(['code', 'name', 'description'], query.search));
      if (query.status === 'archived') select = select.where('archived_at', 'is not', null);
      if (query.status === 'active')
        select = select.where('archived_at', 'is', null).where('is_active', '=', 1);
      if (query.status === 'inactive')
        select = select.where('archived_at', 'is', null).where('is_active', '=', 0);
      const sort = query.sort ?? { field: 'sort_order', direction: 'asc' };
      const page = await fetchPage(select.orderBy(sort.field, sort.direction).orderBy('id'), query);
      return { ...page, data: await withFeatures(db, page.data) };
    },

    get: existing,

    async create(input: CreatePlanInput, actor: AdminActor): Promise<Plan> {
      const id = randomUUID();
      const now = isoNow(clock);
      try {
        await db.transaction().execute(async (trx) => {
          await trx
            .insertInto('plans')
            .values({
              id,
              code: input.code,
              name: input.name,
              description: input.description,
              price_minor: input.price_minor,
              currency: input.currency,
              billing_interval: input.billing_interval,
              max_activations: input.max_activations,
              is_public: input.is_public ? 1 : 0,
              is_active: input.is_active ? 1 : 0,
              sort_order: input.sort_order,
              archived_at: null,
              created_at: now,
              updated_at: now,
            })
            .execute();
          await replaceFeatures(trx, id, input.features);
          await recordAdminAction(trx, clock, actor, {
            type: securityEventTypes.planCreated,
            severity: 'info',
            userId: null,
            details: {
              plan_id: id,
              code: input.code,
              price_minor: input.price_minor,
              currency: input.currency,
            },
          });
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicateCode(input.code);
        throw error;
      }
      return existing(id);
    },

    async update(id: string, changes: UpdatePlanInput, actor: AdminActor): Promise<Plan> {
      const current = await existing(id);
      const price = changes.price_minor ?? current.price_minor;
      const interval = changes.billing_interval ?? current.billing_interval;
      if ((interval === 'free') !== (price === 0)) {
        throw badRequest('validation_error', 'A free plan has price 0 and a paid plan a price above 0');
      }
      try {
        await db.transaction().execute(async (trx) => {
          const { features, is_public, is_active, ...fields } = changes;
          await trx
            .updateTable('plans')
            .set({
              ...fields,
              ...(is_public === undefined ? {} : { is_public: is_public ? 1 : 0 }),
              ...(is_active === undefined ? {} : { is_active: is_active ? 1 : 0 }),
              updated_at: isoNow(clock),
            })
            .where('id', '=', id)
            .execute();
          if (features) await replaceFeatures(trx, id, features);
          await recordAdminAction(trx, clock, actor, {
            type: securityEventTypes.planUpdated,
            severity: 'info',
            userId: null,
            details: { plan_id: id, code: changes.code ?? current.code, changes },
          });
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicateCode(changes.code ?? current.code);
        throw error;
      }
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
      const license = await db
        .selectFrom('licenses')
        .select('id')
        .where('plan_id', '=', id)
        .limit(1)
        .executeTakeFirst();
      const recordRemoval = (trx: DbOrTransaction, outcome: 'deleted' | 'archived') =>
        recordAdminAction(trx, clock, actor, {
          type: securityEventTypes.planDeleted,
          severity: 'warning',
          userId: null,
          details: { plan_id: id, code: row.code, name: row.name, outcome },
        });
      if (!license) {
        try {
          await db.transaction().execute(async (trx) => {
            await trx.deleteFrom('plans').where('id', '=', id).execute();
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
        await trx
          .updateTable('plans')
          .set({ archived_at: row.archived_at ?? now, is_active: 0, is_public: 0, updated_at: now })
          .where('id', '=', id)
          .execute();
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
      const plans = await db.selectFrom('plans').selectAll().orderBy('sort_order').orderBy('id').execute();
      const counts = await db
        .selectFrom('licenses')
        .select([
          'plan_id',
          (eb) => eb.fn.countAll<number | string>().as('total'),
          // Active means usable now: an active row past its expiry reads as expired everywhere else.
          (eb) =>
            eb.fn
              .sum<number | string>(
                eb
                  .case()
                  .when(
                    eb.and([
                      eb('status', '=', 'active'),
                      eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', isoNow(clock))]),
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
      const byPlan = new Map(counts.map((row) => [row.plan_id, row]));
      return {
        total: plans.length,
        active: plans.filter((plan) => plan.is_active === 1 && !plan.archived_at).length,
        public: plans.filter((plan) => plan.is_public === 1 && !plan.archived_at).length,
        archived: plans.filter((plan) => plan.archived_at).length,
        by_plan: plans.map((plan) => ({
          plan_id: plan.id,
          code: plan.code,
          name: plan.name,
          active_licenses: Number(byPlan.get(plan.id)?.active ?? 0),
          total_licenses: Number(byPlan.get(plan.id)?.total ?? 0),
        })),
      };
    },
  };
}

export type PlansService = ReturnType<typeof createPlansService>;
