import { randomUUID } from 'node:crypto';
import {
  type ProvisioningGroupRoleBody,
  type ProvisioningSettings,
  SCIM_TOKEN_PREFIX,
  type ScimTokenCreated,
} from '../../../shared/api/scim.js';
import { SCIM_BASE_PATH } from '../../../shared/routes.js';
import { type Clock, isoNow } from '../../platform/clock.js';
import { randomToken, sha256 } from '../../platform/crypto.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import type { UserRow } from '../../platform/db/tables.js';
import type { ScimTokenRow } from '../../platform/db/tables-scim.js';
import { conflict, forbidden, notFound } from '../../platform/http-error.js';
import { type SecurityEventType, securityEventTypes } from '../../platform/security-log/security-events.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import {
  assertManages,
  type OrganisationAccess,
  type OrganisationActor,
  organisationAccess,
  type Provisioning,
} from '../organisations/index.js';
import { applyMappedRoles } from './groups.js';
import {
  countScimUsers,
  deleteScimToken,
  findScimGroup,
  findScimToken,
  groupsWithCounts,
  memberIdsOfGroup,
  putScimToken,
  updateScimGroup,
} from './repository.js';

export interface ProvisioningSettingsDeps {
  db: Db;
  clock: Clock;
  provisioning: Provisioning;
  publicUrl: string;
}

function assertOwner(access: OrganisationAccess): void {
  if (!access.ownerPowers)
    throw forbidden(
      'owner_only',
      'Only the owner may create, rotate or revoke the provisioning token and map groups.',
    );
}

const summary = (row: ScimTokenRow) => ({
  id: row.id,
  last_four: row.last_four,
  created_at: row.created_at,
  last_used_at: row.last_used_at,
});

/**
 * The organisation's Provisioning settings in the portal: its SCIM token (shown once when created
 * or rotated, kept as a SHA-256 hash), the base URL to paste into the identity provider, and which
 * pushed group gives which role. Owners and admins see them; the owner changes them.
 */
export function createProvisioningSettings({ db, clock, provisioning, publicUrl }: ProvisioningSettingsDeps) {
  async function record(
    trx: DbOrTransaction,
    type: SecurityEventType,
    actor: OrganisationActor,
    organisationId: string,
    details: Record<string, unknown>,
  ) {
    await recordSecurityEvent(trx, clock, {
      type,
      severity: 'warning',
      userId: actor.user.id,
      actorId: actor.user.id,
      meta: actor.meta,
      details: { organisation_id: organisationId, ...details },
    });
  }

  async function issue(
    organisationId: string,
    actor: OrganisationActor,
    rotate: boolean,
  ): Promise<ScimTokenCreated> {
    return db.transaction().execute(async (trx) => {
      assertOwner(await organisationAccess(trx, organisationId, actor.user));
      const current = await findScimToken(trx, organisationId);
      if (!rotate && current)
        throw conflict(
          'scim_token_exists',
          'The organization has a provisioning token already: rotate it instead.',
        );
      if (rotate && !current)
        throw notFound('scim_token_not_found', 'The organization has no provisioning token to rotate.');
      const token = `${SCIM_TOKEN_PREFIX}${randomToken(32)}`;
      const row: ScimTokenRow = {
        organisation_id: organisationId,
        id: randomUUID(),
        token_hash: sha256(token),
        last_four: token.slice(-4),
        created_by: actor.user.id,
        created_at: isoNow(clock),
        last_used_at: null,
      };
      await putScimToken(trx, row);
      await record(
        trx,
        rotate ? securityEventTypes.scimTokenRotated : securityEventTypes.scimTokenCreated,
        actor,
        organisationId,
        {
          scim_token_id: row.id,
          ...(current ? { previous_token_id: current.id } : {}),
        },
      );
      return { ...summary(row), token };
    });
  }

  async function get(organisationId: string, caller: UserRow): Promise<ProvisioningSettings> {
    assertManages(await organisationAccess(db, organisationId, caller));
    const token = await findScimToken(db, organisationId);
    return {
      base_url: `${publicUrl}${SCIM_BASE_PATH}`,
      token: token ? summary(token) : null,
      users: await countScimUsers(db, organisationId, []),
      active_users: await countScimUsers(db, organisationId, [], true),
      groups: (await groupsWithCounts(db, organisationId)).map((group) => ({
        id: group.id,
        display_name: group.display_name,
        role: group.role,
        members: Number(group.members),
      })),
    };
  }

  return {
    get,

    create: (organisationId: string, actor: OrganisationActor) => issue(organisationId, actor, false),
    rotate: (organisationId: string, actor: OrganisationActor) => issue(organisationId, actor, true),

    async revoke(organisationId: string, actor: OrganisationActor): Promise<void> {
      await db.transaction().execute(async (trx) => {
        assertOwner(await organisationAccess(trx, organisationId, actor.user));
        const current = await findScimToken(trx, organisationId);
        if (!current || !(await deleteScimToken(trx, organisationId)))
          throw notFound('scim_token_not_found', 'The organization has no provisioning token to revoke.');
        await record(trx, securityEventTypes.scimTokenRevoked, actor, organisationId, {
          scim_token_id: current.id,
        });
      });
    },

    /** Maps a pushed group to a role (or to none): its members' roles follow at once. */
    async mapGroup(
      organisationId: string,
      groupId: string,
      body: ProvisioningGroupRoleBody,
      actor: OrganisationActor,
    ): Promise<ProvisioningSettings> {
      await db.transaction().execute(async (trx) => {
        assertOwner(await organisationAccess(trx, organisationId, actor.user));
        const group = await findScimGroup(trx, organisationId, groupId);
        if (!group) throw notFound('scim_group_not_found', 'The identity provider has pushed no such group.');
        if (group.role === body.role) return;
        await updateScimGroup(trx, group.id, { role: body.role, updated_at: isoNow(clock) });
        await applyMappedRoles(trx, provisioning, organisationId, await memberIdsOfGroup(trx, group.id), {
          tokenId: null,
          userId: actor.user.id,
          meta: actor.meta,
        });
        await record(trx, securityEventTypes.scimGroupRoleMapped, actor, organisationId, {
          scim_group_id: group.id,
          display_name: group.display_name,
          from: group.role,
          to: body.role,
        });
      });
      return get(organisationId, actor.user);
    },
  };
}

export type ProvisioningSettingsService = ReturnType<typeof createProvisioningSettings>;
