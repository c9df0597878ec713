import { randomUUID } from 'node:crypto';
import type { ScimGroup } from '../../../shared/api/scim.js';
import { type Clock, isoNow } from '../../platform/clock.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import type { ScimGroupRow } from '../../platform/db/tables-scim.js';
import { type SecurityEventType, securityEventTypes } from '../../platform/security-log/security-events.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import type { Provisioning, ProvisioningActor } from '../organisations/index.js';
import { scimBadRequest, scimNotFound, scimUniqueness } from './errors.js';
import { readFilter } from './filter.js';
import { type ScimListQuery, scimListPage } from './list-page.js';
import {
  addGroupMembers,
  countScimGroups,
  deleteScimGroup,
  findScimGroup,
  type GroupColumn,
  insertScimGroup,
  listScimGroups,
  memberIdsOfGroup,
  membersOfGroups,
  removeGroupMembers,
  scimUsersByIds,
  updateScimGroup,
} from './repository.js';
import { type GroupPatch, patchGroup, readGroup, readPatch, toScimGroup } from './resources.js';
import { accountOf, mappedRole, type ScimCaller } from './users.js';

export interface ScimGroupsDeps {
  db: Db;
  clock: Clock;
  provisioning: Provisioning;
  publicUrl: string;
}

const FILTERABLE: Record<string, GroupColumn> = {
  displayName: 'display_name',
  externalId: 'external_id',
  id: 'id',
};

/**
 * Gives each of these provisioned people the role their groups now map to (the owner configures
 * which group gives admin), in the caller's transaction.
 */
export async function applyMappedRoles(
  trx: DbOrTransaction,
  provisioning: Provisioning,
  organisationId: string,
  scimUserIds: readonly string[],
  actor: ProvisioningActor,
): Promise<void> {
  for (const row of await scimUsersByIds(trx, organisationId, [...new Set(scimUserIds)])) {
    const account = await accountOf(trx, row);
    if (account)
      await provisioning.setRole(trx, organisationId, account.id, await mappedRole(trx, row.id), actor);
  }
}

/** SCIM Groups of one organisation: their members are provisioned users, their role the owner maps. */
export function createScimGroups({ db, clock, provisioning, publicUrl }: ScimGroupsDeps) {
  async function event(
    trx: DbOrTransaction,
    type: SecurityEventType,
    caller: ScimCaller,
    row: ScimGroupRow,
    details = {},
  ) {
    await recordSecurityEvent(trx, clock, {
      type,
      severity: 'info',
      meta: caller.actor.meta,
      details: {
        organisation_id: caller.organisationId,
        scim_token_id: caller.actor.tokenId,
        scim_group_id: row.id,
        display_name: row.display_name,
        ...details,
      },
    });
  }

  async function existing(trx: DbOrTransaction, caller: ScimCaller, id: string): Promise<ScimGroupRow> {
    const row = await findScimGroup(trx, caller.organisationId, id);
    if (!row) throw scimNotFound('Group', id);
    return row;
  }

  /** The ids must be this organisation's users: another's, or none, is 400 `invalidValue`. */
  async function assertUsers(trx: DbOrTransaction, caller: ScimCaller, ids: readonly string[]) {
    const unique = [...new Set(ids)];
    const found = await scimUsersByIds(trx, caller.organisationId, unique);
    if (found.length !== unique.length) {
      const known = new Set(found.map((row) => row.id));
      const missing = unique.find((id) => !known.has(id)) ?? '';
      throw scimBadRequest('invalidValue', `No user ${missing.slice(0, 80)} to make a member`);
    }
  }

  async function assertName(trx: DbOrTransaction, caller: ScimCaller, name: string, self: string | null) {
    const [same] = await listScimGroups(trx, caller.organisationId, [['display_name', name]], 0, 1);
    if (same && same.id !== self) throw scimUniqueness(`A group named ${name} exists already`);
  }

  async function answer(row: ScimGroupRow, withMembers = true): Promise<ScimGroup> {
    return toScimGroup(row, withMembers ? await membersOfGroups(db, [row.id]) : undefined, publicUrl);
  }

  /** Applies a patch's member changes and names, then the roles of everyone whose groups changed. */
  async function applyPatch(trx: DbOrTransaction, caller: ScimCaller, row: ScimGroupRow, patch: GroupPatch) {
    const before = await memberIdsOfGroup(trx, row.id);
    await assertUsers(trx, caller, patch.add);
    if (patch.replaceMembers) await removeGroupMembers(trx, row.id, before);
    else await removeGroupMembers(trx, row.id, patch.remove);
    await addGroupMembers(trx, row.id, patch.add);
    const changes = {
      ...(patch.displayName === undefined ? {} : { display_name: patch.displayName }),
      ...(patch.externalId === undefined ? {} : { external_id: patch.externalId }),
      updated_at: isoNow(clock),
    };
    if (patch.displayName !== undefined) await assertName(trx, caller, patch.displayName, row.id);
    await updateScimGroup(trx, row.id, changes);
    const after = await memberIdsOfGroup(trx, row.id);
    const touched = [
      ...before.filter((id) => !after.includes(id)),
      ...after.filter((id) => !before.includes(id)),
    ];
    await applyMappedRoles(trx, provisioning, caller.organisationId, touched, caller.actor);
    await event(
      trx,
      securityEventTypes.scimGroupUpdated,
      caller,
      { ...row, ...changes },
      {
        members_added: after.filter((id) => !before.includes(id)).length,
        members_removed: before.filter((id) => !after.includes(id)).length,
      },
    );
  }

  const unique = <T>(work: () => Promise<T>) =>
    work().catch((error: unknown) => {
      if (isUniqueViolation(error)) throw scimUniqueness('Another group has that displayName');
      throw error;
    });

  return {
    async list(caller: ScimCaller, query: ScimListQuery, withMembers: boolean) {
      const where: [GroupColumn, string][] = query.filter
        ? readFilter(query.filter, Object.keys(FILTERABLE)).map(({ attribute, value }) => [
            FILTERABLE[attribute] ?? 'id',
            value,
          ])
        : [];
      return scimListPage(query, {
        total: () => countScimGroups(db, caller.organisationId, where),
        rows: (offset, limit) => listScimGroups(db, caller.organisationId, where, offset, limit),
        resources: async (rows) => {
          const members = withMembers
            ? await membersOfGroups(
                db,
                rows.map((row) => row.id),
              )
            : [];
          return rows.map((row) =>
            toScimGroup(
              row,
              withMembers ? members.filter((member) => member.group_id === row.id) : undefined,
              publicUrl,
            ),
          );
        },
      });
    },

    async get(caller: ScimCaller, id: string, withMembers: boolean): Promise<ScimGroup> {
      return answer(await existing(db, caller, id), withMembers);
    },

    async create(caller: ScimCaller, body: unknown): Promise<ScimGroup> {
      const fields = readGroup(body);
      const row = await unique(() =>
        db.transaction().execute(async (trx) => {
          await assertName(trx, caller, fields.displayName, null);
          const now = isoNow(clock);
          const row: ScimGroupRow = {
            id: randomUUID(),
            organisation_id: caller.organisationId,
            display_name: fields.displayName,
            external_id: fields.externalId,
            role: null,
            created_at: now,
            updated_at: now,
          };
          await insertScimGroup(trx, row);
          await assertUsers(trx, caller, fields.members ?? []);
          await addGroupMembers(trx, row.id, fields.members ?? []);
          await event(trx, securityEventTypes.scimGroupCreated, caller, row, {
            members: fields.members?.length ?? 0,
          });
          return row;
        }),
      );
      return answer(row);
    },

    async replace(caller: ScimCaller, id: string, body: unknown): Promise<ScimGroup> {
      const fields = readGroup(body);
      const row = await unique(() =>
        db.transaction().execute(async (trx) => {
          const row = await existing(trx, caller, id);
          await applyPatch(trx, caller, row, {
            displayName: fields.displayName,
            externalId: fields.externalId,
            add: fields.members ?? [],
            remove: [],
            replaceMembers: fields.members !== undefined,
          });
          return existing(trx, caller, id);
        }),
      );
      return answer(row);
    },

    async patch(caller: ScimCaller, id: string, body: unknown): Promise<ScimGroup> {
      const patch = patchGroup(readPatch(body));
      const row = await unique(() =>
        db.transaction().execute(async (trx) => {
          const row = await existing(trx, caller, id);
          await applyPatch(trx, caller, row, patch);
          return existing(trx, caller, id);
        }),
      );
      return answer(row);
    },

    /** Deletes the group: its members lose the role it gave. */
    async remove(caller: ScimCaller, id: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const row = await existing(trx, caller, id);
        const members = await memberIdsOfGroup(trx, row.id);
        await deleteScimGroup(trx, row.id);
        await applyMappedRoles(trx, provisioning, caller.organisationId, members, caller.actor);
        await event(trx, securityEventTypes.scimGroupDeleted, caller, row, { members: members.length });
      });
    },
  };
}

export type ScimGroups = ReturnType<typeof createScimGroups>;
