import type { FeatureUsage } from '../../../shared/api/licenses.js';
import type { MemberFeatureUsage, MemberUsage, SetMemberCapsBody } from '../../../shared/api/member-usage.js';
import type { OrganisationUsage } from '../../../shared/api/organisation-usage.js';
import type { OrganisationRole } from '../../../shared/api/organisations.js';
import { type Clock, isoNow } from '../../platform/clock.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import type { LicenseRow, UserRow } from '../../platform/db/tables.js';
import { badRequest, conflict, notFound } from '../../platform/http-error.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import { toLicense } from '../licenses/views.js';
import { assertManages, organisationAccess } from '../organisations/access.js';
import { listMembers } from '../organisations/repository.js';
import {
  findMembership,
  findOrganisationLicense,
  lockOrganisation,
} from '../organisations/seats-repository.js';
import type { ReportingMember } from './member-caps.js';
import {
  findMemberCaps,
  findOrganisationCaps,
  memberTotals,
  saveMemberCap,
} from './member-usage-repository.js';

/** The metered features of a license's usage, with their current period. */
const metered = (features: FeatureUsage[]) =>
  features.filter(
    (feature): feature is FeatureUsage & { period: 'day' | 'month'; period_start: string } =>
      feature.kind === 'metered' && feature.period !== null && feature.period_start !== null,
  );

/** One member's use of each metered feature this period, beside the cap set on them. */
function memberFeatures(
  features: FeatureUsage[],
  userId: string,
  totals: Map<string, number>,
  capOf: (featureId: string) => number | undefined,
): MemberFeatureUsage[] {
  return metered(features).map((feature) => {
    const used = totals.get(`${userId}|${feature.feature_id}|${feature.period_start}`) ?? 0;
    const cap = capOf(feature.feature_id) ?? null;
    return {
      feature_id: feature.feature_id,
      key: feature.key,
      name: feature.name,
      unit: feature.unit,
      period: feature.period,
      period_start: feature.period_start,
      used,
      cap,
      remaining: cap === null ? null : Math.max(0, cap - used),
    };
  });
}

const periodStartsOf = (features: FeatureUsage[]) => [
  ...new Set(metered(features).map((feature) => feature.period_start)),
];

/**
 * Who reports on an organisation's license, with the caps set on them; undefined on a personal
 * license, where the license's own counters are the whole story.
 */
export async function reportingMember(
  db: DbOrTransaction,
  license: LicenseRow,
  userId: string,
): Promise<ReportingMember | undefined> {
  if (license.organisation_id === null) return undefined;
  return { userId, caps: await findMemberCaps(db, license.organisation_id, userId) };
}

/** The caller's own use and caps on an organisation's license (null on a personal one). */
export async function ownMemberUsage(
  db: DbOrTransaction,
  license: LicenseRow,
  features: FeatureUsage[],
  userId: string | undefined,
): Promise<MemberUsage | null> {
  if (license.organisation_id === null || userId === undefined) return null;
  const [totals, caps] = await Promise.all([
    memberTotals(db, license.id, periodStartsOf(features), userId),
    findMemberCaps(db, license.organisation_id, userId),
  ]);
  return {
    user_id: userId,
    email: null,
    full_name: null,
    role: null,
    features: memberFeatures(features, userId, totals, (featureId) => caps.get(featureId)),
  };
}

const noLicense = () =>
  conflict('no_seats', 'The organization has no license yet: buy the Business plan for it first.');

/** Caps on an organisation's members, and the pool's use per member, for its owners and admins. */
export function createMemberUsageService({ db, clock }: { db: Db; clock: Clock }) {
  async function usageOf(organisationId: string): Promise<OrganisationUsage> {
    const license = await findOrganisationLicense(db, organisationId);
    const members = await listMembers(db, organisationId);
    if (!license) {
      const none = members.map((member) => ({ ...identity(member), features: [] }));
      return { organisation_id: organisationId, license_id: null, pool: [], members: none };
    }
    const features = (await toLicense(db, license, clock.now())).usage_info.features;
    const [totals, caps] = await Promise.all([
      memberTotals(db, license.id, periodStartsOf(features)),
      findOrganisationCaps(db, organisationId),
    ]);
    return {
      organisation_id: organisationId,
      license_id: license.id,
      pool: metered(features),
      members: members.map((member) => ({
        ...identity(member),
        features: memberFeatures(features, member.user_id, totals, (featureId) =>
          caps.get(`${member.user_id}|${featureId}`),
        ),
      })),
    };
  }

  return {
    /** The pool's use this period and each member's, with their caps (owners and admins). */
    async organisationUsage(organisationId: string, caller: UserRow): Promise<OrganisationUsage> {
      assertManages(await organisationAccess(db, organisationId, caller));
      return usageOf(organisationId);
    },

    /**
     * Sets or clears a member's caps, one per metered feature of the organisation's plan: all of
     * them or none (a feature the plan lacks, or an on/off one, refuses the whole change).
     */
    async setCaps(
      organisationId: string,
      userId: string,
      body: SetMemberCapsBody,
      actor: { user: UserRow; meta: RequestMeta },
    ): Promise<MemberUsage> {
      await db.transaction().execute(async (trx) => {
        await lockOrganisation(trx, organisationId);
        assertManages(await organisationAccess(trx, organisationId, actor.user));
        if (!(await findMembership(trx, organisationId, userId)))
          throw notFound('member_not_found', 'That account is not a member of this organization');
        const license = await findOrganisationLicense(trx, organisationId);
        if (!license) throw noLicense();
        const features = (await toLicense(trx, license, clock.now())).usage_info.features;
        const changes = body.caps.map((item) => {
          const feature = features.find(
            (each) => each.feature_id === item.feature || each.key === item.feature,
          );
          if (!feature)
            throw badRequest(
              'feature_not_included',
              `${item.feature} is not a feature of the organization’s plan`,
            );
          if (feature.kind !== 'metered' || !feature.period)
            throw badRequest(
              'feature_not_metered',
              `${feature.name} is an on/off feature; only metered features can be capped`,
            );
          return { featureId: feature.feature_id, key: feature.key, cap: item.cap };
        });
        const at = isoNow(clock);
        for (const change of changes)
          await saveMemberCap(trx, {
            organisationId,
            userId,
            featureId: change.featureId,
            cap: change.cap,
            setBy: actor.user.id,
            at,
          });
        await recordSecurityEvent(trx, clock, {
          type: securityEventTypes.organisationUsageCapsChanged,
          severity: 'info',
          userId,
          actorId: actor.user.id,
          meta: actor.meta,
          details: {
            organisation_id: organisationId,
            caps: Object.fromEntries(changes.map((change) => [change.key, change.cap])),
          },
        });
      });
      const answer = (await usageOf(organisationId)).members.find((member) => member.user_id === userId);
      if (!answer) throw notFound('member_not_found', 'That account is not a member of this organization');
      return answer;
    },
  };
}

function identity(member: {
  user_id: string;
  email: string;
  full_name: string | null;
  role: OrganisationRole;
}) {
  return { user_id: member.user_id, email: member.email, full_name: member.full_name, role: member.role };
}

export type MemberUsageService = ReturnType<typeof createMemberUsageService>;
