import { randomUUID, webcrypto } from 'node:crypto';
import { sql } from 'kysely';
import type { z } from 'zod';
import type {
  ActivateBaseLicenseRequest,
  ActivateLicenseRequest,
  ActivationResult,
  activatePlanRequestSchema,
  DownloadPlatform,
  FeatureUsage,
  License,
  LicenseStatusAnswer,
  trackUsageRequestSchema,
} from '../../../shared/api/licenses.js';
import { BASE_PLAN_CODE, type Plan } from '../../../shared/api/plans.js';
import { utc } from '../../../shared/dates.js';
import { generateLicenseKey, normalizeLicenseKey } from '../../../shared/license-key.js';
import type { Clock } from '../../clock.js';
import type { Db, DbOrTransaction } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { ActivationRow, LicenseRow, PlanRow, UserRow } from '../../db/tables.js';
import { badRequest, conflict, HttpError, notFound } from '../../http-error.js';
import type { RequestMeta } from '../../request-meta.js';
import { latestReleases } from '../downloads/releases.js';
import { DOWNLOAD_LINK_TTL_SECONDS, type DownloadLinks } from '../downloads/signed-links.js';
import { findFeatureByIdOrKey } from '../features/repository.js';
import type { LeaseSigner } from '../licensing/lease-signer.js';
import type { PlanCatalogueCache } from '../plans/catalogue-cache.js';
import { findOfferedPlanByIdOrCode, offeredPlans, withFeatures } from '../plans/repository.js';
import { activateMachine, type Device, recordHeartbeat } from './activations.js';
import { expiryAfterInterval } from './periods.js';
import { invalidKey, inactiveLicense, machineRefusal, unknownKey } from './refusals.js';
import {
  findActivation,
  findLicenseById,
  findLicenseByKey,
  findOwnLicense,
  hasActivatedOn,
  licensesOfUser,
} from './repository.js';
import { addUsage, currentTotals, featureUsage, featureUsages, recordUsageEvent } from './usage.js';
import { effectiveStatus, toActivation, toLicense, toLicenses } from './views.js';
import { currentPeriodStart } from './periods.js';

/** The UTC day of a usage event; literal arguments, so PostgreSQL sees the same expression in SELECT and GROUP BY. */
const usageDay = sql<string>`substr(${sql.ref('usage_events.created_at')}, 1, 10)`;

type TrackUsageInput = z.output<typeof trackUsageRequestSchema>;
type ActivatePlanInput = z.output<typeof activatePlanRequestSchema>;

export interface LicensesServiceDeps {
  db: Db;
  clock: Clock;
  leases: LeaseSigner;
  downloadLinks: DownloadLinks;
  /** Absolute URL prefix of the API (`${PUBLIC_URL}/api/v1`) for download links. */
  apiUrl: string;
  planCatalogue: PlanCatalogueCache;
}

/** Thrown inside the usage transaction to roll it back when the limit would be passed. */
const usageRefused = new Error('usage limit would be passed');

const licenseNotFound = () => notFound('license_not_found', 'License not found');
const planUnavailable = () => notFound('plan_not_found', 'This plan is not available');
const paymentRequired = (plan: { name: string }) =>
  new HttpError(
    402,
    'payment_required',
    `${plan.name} is a paid plan: buy it on the Purchase page to activate it.`,
  );

export interface IssueLicenseInput {
  userId: string;
  plan: PlanRow;
  subscriptionId?: string | null;
  /** Set on the free Base license only, so each user has at most one. */
  baseOwnerId?: string | null;
  metadata?: Record<string, unknown> | null;
  /** An administrator's choice instead of the plan's interval (null: never expires). */
  expiresAt?: string | null;
  /** An administrator's choice instead of the plan's seat limit. */
  maxActivations?: number;
}

/** Creates a license of a plan with a fresh key (used by plan activation, payments and admins). */
export async function issueLicense(
  db: DbOrTransaction,
  clock: Clock,
  input: IssueLicenseInput,
): Promise<LicenseRow> {
  const now = clock.now();
  const row: LicenseRow = {
    id: randomUUID(),
    license_key: generateLicenseKey((bytes) => webcrypto.getRandomValues(bytes)),
    user_id: input.userId,
    plan_id: input.plan.id,
    subscription_id: input.subscriptionId ?? null,
    status: 'active',
    expires_at:
      input.expiresAt === undefined ? expiryAfterInterval(input.plan.billing_interval, now) : input.expiresAt,
    max_activations: input.maxActivations ?? input.plan.max_activations,
    base_owner_id: input.baseOwnerId ?? null,
    metadata: input.metadata ? JSON.stringify(input.metadata) : null,
    revoked_reason: null,
    revoked_at: null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  await db.insertInto('licenses').values(row).execute();
  return row;
}

/** Licenses as their owners and their machines use them. */
export function createLicensesService({
  db,
  clock,
  leases,
  downloadLinks,
  apiUrl,
  planCatalogue,
}: LicensesServiceDeps) {
  async function ownLicense(user: UserRow, id: string): Promise<LicenseRow> {
    const row = await findOwnLicense(db, user.id, id);
    if (!row) throw licenseNotFound();
    return row;
  }

  /** The license, refused with its status message unless it is active. */
  function assertActive(row: LicenseRow): void {
    const status = effectiveStatus(row, clock.now());
    if (status !== 'active') throw inactiveLicense(row, status);
  }

  async function licenseByKey(typedKey: string): Promise<LicenseRow> {
    const key = normalizeLicenseKey(typedKey);
    if (!key) throw invalidKey();
    const row = await findLicenseByKey(db, key);
    if (!row) throw unknownKey();
    return row;
  }

  async function lease(row: LicenseRow, hardwareId: string, license: Pick<License, 'plan' | 'usage_info'>) {
    return leases.sign({
      licenseId: row.id,
      licenseKey: row.license_key,
      hardwareId,
      plan: { id: license.plan.id, code: license.plan.code, name: license.plan.name },
      features: license.usage_info.features.map((feature) => ({
        key: feature.key,
        kind: feature.kind,
        limit: feature.limit,
      })),
      licenseExpiresAt: row.expires_at,
    });
  }

  async function activationResult(
    row: LicenseRow,
    activation: ActivationRow,
    created: boolean,
    user: UserRow,
  ): Promise<ActivationResult & { created: boolean }> {
    const license = await toLicense(db, row, clock.now(), { withActivations: true, viewerId: user.id });
    const signed = await lease(row, activation.hardware_id, license);
    return {
      ...license,
      activation: toActivation(activation),
      lease: signed.lease,
      lease_expires_at: signed.expiresAt,
      message: created ? 'This machine is now activated' : 'This machine was already activated',
      created,
    };
  }

  async function activateOn(row: LicenseRow, device: Device, user: UserRow, meta: RequestMeta | null) {
    assertActive(row);
    const { activation, created } = await activateMachine(db, clock, row, device, meta, user.id);
    return activationResult(row, activation, created, user);
  }

  const findBaseLicense = (userId: string) =>
    db.selectFrom('licenses').selectAll().where('base_owner_id', '=', userId).executeTakeFirst();

  /** The user's one free Base license, issued on first use. */
  async function baseLicense(user: UserRow): Promise<{ row: LicenseRow; created: boolean }> {
    const existing = await findBaseLicense(user.id);
    if (existing) return { row: existing, created: false };
    const plan = await offeredPlans(db).where('code', '=', BASE_PLAN_CODE).executeTakeFirst();
    if (!plan) throw conflict('base_plan_unavailable', 'The free Base plan is not available at the moment');
    try {
      const row = await issueLicense(db, clock, { userId: user.id, plan, baseOwnerId: user.id });
      return { row, created: true };
    } catch (error) {
      // A second request of the same user won the race: theirs is the one Base license.
      if (!isUniqueViolation(error)) throw error;
      const winner = await findBaseLicense(user.id);
      if (!winner) throw error;
      return { row: winner, created: false };
    }
  }

  /** Answers a license check from a machine and refreshes its heartbeat and lease. */
  async function check(typedKey: string, hardwareId: string): Promise<LicenseStatusAnswer> {
    const row = await licenseByKey(typedKey);
    assertActive(row);
    const activation = await findActivation(db, row.id, hardwareId);
    if (!activation || activation.deactivated_at !== null) throw machineRefusal(activation);
    const now = clock.now();
    const seen = await recordHeartbeat(db, activation, now);
    const [{ plan, features: planFeatures }, totals] = await Promise.all([
      planCatalogue.get(row.plan_id),
      currentTotals(db, [row.id], now),
    ]);
    const features = featureUsages(row.id, planFeatures, totals, now, true);
    const signed = await lease(row, hardwareId, { plan, usage_info: { features } });
    return {
      valid: true,
      status: 'active',
      message: 'License is valid',
      requires_activation: false,
      license_id: row.id,
      license_key: row.license_key,
      plan,
      expires_at: row.expires_at,
      features,
      activation: toActivation(seen),
      lease: signed.lease,
      lease_expires_at: signed.expiresAt,
    };
  }

  /** A feature of the license with this period's use; one the plan lacks reads as unavailable. */
  async function featureOf(
    row: LicenseRow,
    featureId: string,
  ): Promise<{ usage: FeatureUsage; included: boolean }> {
    const feature = await findFeatureByIdOrKey(db, featureId);
    if (!feature) throw notFound('feature_not_found', `Unknown feature: ${featureId}`);
    const license = await toLicense(db, row, clock.now());
    const included = license.usage_info.features.find((item) => item.feature_id === feature.id);
    if (included) return { usage: included, included: true };
    const usage: FeatureUsage = {
      feature_id: feature.id,
      key: feature.key,
      name: feature.name,
      kind: feature.kind,
      period: feature.period,
      unit: feature.unit,
      limit: 0,
      used: 0,
      remaining: 0,
      available: false,
      message: `${feature.name} is not included in the ${license.plan.name} plan. Upgrade to use it.`,
      period_start: null,
      period_end: null,
    };
    return { usage, included: false };
  }

  return {
    list: async (user: UserRow): Promise<License[]> =>
      toLicenses(db, await licensesOfUser(db, user.id), clock.now()),

    get: async (user: UserRow, id: string): Promise<License> =>
      toLicense(db, await ownLicense(user, id), clock.now(), { withActivations: true }),

    /**
     * Any signed-in holder of a key may activate a machine on it: team members share their owner's
     * key. The answer shows them their own machines only, never the owner's account or machines.
     */
    async activate(user: UserRow, body: ActivateLicenseRequest, meta: RequestMeta | null) {
      return activateOn(await licenseByKey(body.license_key), body, user, meta);
    },

    async activateBase(user: UserRow, body: ActivateBaseLicenseRequest, meta: RequestMeta | null) {
      return activateOn((await baseLicense(user)).row, body, user, meta);
    },

    validate: (body: { license_key: string; hardware_id: string }) =>
      check(body.license_key, body.hardware_id),

    /**
     * Frees the seat of one machine: any machine of the user's own license, or one the user
     * activated with a key its owner shared. Another account's machine reads as not activated.
     */
    async deactivate(
      user: UserRow,
      id: string,
      target: { hardware_id?: string | undefined; activation_id?: string | undefined },
    ) {
      const row = await findLicenseById(db, id);
      const owned = row?.user_id === user.id;
      // Someone else's license reads as not found, unless the user took a seat on it.
      if (!row || (!owned && !(await hasActivatedOn(db, row.id, user.id)))) throw licenseNotFound();
      let query = db.selectFrom('activations').selectAll().where('license_id', '=', row.id);
      if (!owned) query = query.where('activated_by', '=', user.id);
      query = target.activation_id
        ? query.where('id', '=', target.activation_id)
        : query.where('hardware_id', '=', target.hardware_id ?? '');
      const activation = await query.executeTakeFirst();
      if (!activation)
        throw notFound('activation_not_found', 'This machine is not activated on this license');
      if (activation.deactivated_at === null) {
        await db
          .updateTable('activations')
          .set({ deactivated_at: clock.now().toISOString(), deactivated_reason: 'user' })
          .where('id', '=', activation.id)
          .where('deactivated_at', 'is', null)
          .execute();
      }
      return toLicense(db, row, clock.now(), { withActivations: true, viewerId: user.id });
    },

    async usage(user: UserRow, id: string, days: number) {
      const row = await ownLicense(user, id);
      const now = clock.now();
      const since = utc(now)
        .startOf('day')
        .subtract(days - 1, 'day')
        .toISOString();
      const history = await db
        .selectFrom('usage_events')
        .innerJoin('features', 'features.id', 'usage_events.feature_id')
        .select((eb) => [
          usageDay.as('date'),
          'usage_events.feature_id',
          'features.key',
          eb.fn.sum<number | string>('usage_events.amount').as('amount'),
        ])
        .where('usage_events.license_id', '=', row.id)
        .where('usage_events.created_at', '>=', since)
        .groupBy([usageDay, 'usage_events.feature_id', 'features.key'])
        .orderBy('date')
        .orderBy('features.key')
        .execute();
      const license = await toLicense(db, row, now);
      return {
        license_id: row.id,
        usage_info: license.usage_info,
        history: history.map((item) => ({
          date: item.date,
          feature_id: item.feature_id,
          key: item.key,
          amount: Number(item.amount),
        })),
      };
    },

    /** Counts use of a metered feature against this period's limit, atomically. */
    async trackUsage(user: UserRow, id: string, body: TrackUsageInput) {
      const row = await ownLicense(user, id);
      assertActive(row);
      const { usage: feature, included } = await featureOf(row, body.featureId);
      if (!included) throw new HttpError(403, 'feature_not_included', feature.message);
      if (feature.kind !== 'metered' || !feature.period) {
        throw badRequest(
          'feature_not_metered',
          `${feature.name} is an on/off feature; only metered features count usage`,
        );
      }
      const now = clock.now();
      const periodStart = currentPeriodStart(feature.period, now);
      const total = await db
        .transaction()
        .execute(async (trx) => {
          const added = await addUsage(trx, {
            licenseId: row.id,
            featureId: feature.feature_id,
            periodStart,
            amount: body.usageAmount,
            limit: feature.limit,
          });
          // Refused: roll back, so not even the period's empty counter row is left behind.
          if (added === undefined) throw usageRefused;
          await recordUsageEvent(trx, {
            licenseId: row.id,
            featureId: feature.feature_id,
            amount: body.usageAmount,
            data: body.usageData,
            at: now.toISOString(),
          });
          return added;
        })
        .catch((error: unknown) => {
          if (error === usageRefused) return undefined;
          throw error;
        });
      if (total === undefined) {
        const { usage: latest } = await featureOf(row, feature.feature_id);
        const left = latest.remaining ?? 0;
        throw conflict(
          'usage_limit_reached',
          left > 0
            ? `${latest.message}. Only ${left} ${latest.unit ?? 'units'} left, fewer than the ${body.usageAmount} asked for.`
            : `${latest.message}.`,
        );
      }
      return {
        license_id: row.id,
        recorded: body.usageAmount,
        feature: featureUsage(feature, total, now, true),
      };
    },

    async features(user: UserRow, id: string) {
      const license = await toLicense(db, await ownLicense(user, id), clock.now());
      return { license_id: license.license_id, features: license.usage_info.features };
    },

    featureCheck: async (user: UserRow, id: string, featureId: string) =>
      (await featureOf(await ownLicense(user, id), featureId)).usage,

    /** Activates a plan for the user: free plans at once; paid plans need a payment (see payments). */
    async activatePlan(
      user: UserRow,
      body: ActivatePlanInput,
    ): Promise<{ license: License; created: boolean }> {
      const plan = await findOfferedPlanByIdOrCode(db, body.planId);
      if (!plan) throw planUnavailable();
      if (plan.price_minor > 0) throw paymentRequired(plan);
      if (plan.code === BASE_PLAN_CODE) {
        const { row, created } = await baseLicense(user);
        return { license: await toLicense(db, row, clock.now()), created };
      }
      const existing = (await licensesOfUser(db, user.id)).find(
        (row) => row.plan_id === plan.id && effectiveStatus(row, clock.now()) === 'active',
      );
      if (existing) return { license: await toLicense(db, existing, clock.now()), created: false };
      const row = await issueLicense(db, clock, { userId: user.id, plan, metadata: body.userInfo });
      return { license: await toLicense(db, row, clock.now()), created: true };
    },

    /** The plan of the user's best active license: the priciest, then the newest. */
    async currentPlan(user: UserRow): Promise<{ plan: Plan | null; license: License | null }> {
      const now = clock.now();
      const active = (await licensesOfUser(db, user.id)).filter(
        (row) => effectiveStatus(row, now) === 'active',
      );
      if (active.length === 0) return { plan: null, license: null };
      const plans = await withFeatures(
        db,
        await db
          .selectFrom('plans')
          .selectAll()
          .where('id', 'in', [...new Set(active.map((row) => row.plan_id))])
          .execute(),
      );
      const priceOf = (row: LicenseRow) => plans.find((plan) => plan.id === row.plan_id)?.price_minor ?? 0;
      const best = active.toSorted(
        (a, b) => priceOf(b) - priceOf(a) || b.created_at.localeCompare(a.created_at),
      )[0] as LicenseRow;
      return {
        plan: plans.find((plan) => plan.id === best.plan_id) ?? null,
        license: await toLicense(db, best, now),
      };
    },

    /** Moves a license to another plan: its plan_id and subscription_id change. */
    async changePlan(user: UserRow, id: string, planId: string): Promise<License> {
      const row = await ownLicense(user, id);
      assertActive(row);
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
        const { used } = await trx
          .selectFrom('activations')
          .select((eb) => eb.fn.countAll<number | string>().as('used'))
          .where('license_id', '=', row.id)
          .where('deactivated_at', 'is', null)
          .executeTakeFirstOrThrow();
        if (Number(used) > plan.max_activations) {
          throw conflict(
            'too_many_activations',
            `${plan.name} allows ${plan.max_activations} machine${plan.max_activations === 1 ? '' : 's'}, but this license is active on ${Number(used)}. Deactivate ${Number(used) - plan.max_activations} first.`,
          );
        }
        return trx
          .updateTable('licenses')
          .set({
            plan_id: plan.id,
            subscription_id: null,
            max_activations: plan.max_activations,
            expires_at: expiryAfterInterval(plan.billing_interval, clock.now()),
            updated_at: clock.now().toISOString(),
          })
          .where('id', '=', row.id)
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      return toLicense(db, updated, clock.now());
    },

    /** Signed links to the newest installers, for holders of an active license. */
    async download(user: UserRow, id: string, platform: DownloadPlatform | undefined) {
      const row = await ownLicense(user, id);
      assertActive(row);
      const releases = await latestReleases(db, platform);
      if (releases.length === 0) {
        throw notFound(
          'release_not_found',
          platform
            ? `No desktop release has been published for ${platform} yet`
            : 'No desktop release has been published yet',
        );
      }
      const expiresAt = Math.floor(clock.now().getTime() / 1000) + DOWNLOAD_LINK_TTL_SECONDS;
      return {
        license_id: row.id,
        releases: releases.map((release) => ({
          platform: release.platform,
          version: release.version,
          file_name: release.file_name,
          size_bytes: release.size_bytes,
          sha256: release.sha256,
          published_at: release.published_at,
          url: `${apiUrl}/downloads/${downloadLinks.sign({ releaseId: release.id, userId: user.id, expiresAt })}`,
          url_expires_at: new Date(expiresAt * 1000).toISOString(),
        })),
      };
    },
  };
}

export type LicensesService = ReturnType<typeof createLicensesService>;
