import { randomUUID } from 'node:crypto';
import type { ScimUser } from '../../../shared/api/scim.js';
import { findUserByEmail, findUserById } from '../../identity/index.js';
import { type Clock, isoNow } from '../../platform/clock.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import type { ScimUserRow } from '../../platform/db/tables-scim.js';
import { HttpError } from '../../platform/http-error.js';
import { type SecurityEventType, securityEventTypes } from '../../platform/security-log/security-events.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import type { Provisioning, ProvisioningActor } from '../organisations/index.js';
import { scimError, scimNotFound, scimUniqueness } from './errors.js';
import { readFilter } from './filter.js';
import { type ScimListQuery, scimListPage } from './list-page.js';
import {
  countScimUsers,
  deleteScimUser,
  findScimUser,
  groupsOfUsers,
  insertScimUser,
  listScimUsers,
  updateScimUser,
  type UserColumn,
} from './repository.js';
import { patchUser, readPatch, readUser, toScimUser, type UserFields, userFieldsOf } from './resources.js';

/** The organisation a SCIM token belongs to, and the token as the actor of what it changes. */
export interface ScimCaller {
  organisationId: string;
  actor: ProvisioningActor;
}

export interface ScimUsersDeps {
  db: Db;
  clock: Clock;
  provisioning: Provisioning;
  publicUrl: string;
}

const FILTERABLE: Record<string, UserColumn> = {
  userName: 'user_name_key',
  externalId: 'external_id',
  id: 'id',
  'emails.value': 'email',
};

const ownerRefused = () =>
  scimError(
    400,
    'scim_owner_protected',
    'The organization’s owner cannot be deactivated or deleted by provisioning: ' +
      'transfer ownership to another member in the portal first.',
    'mutability',
  );

/** The role a provisioned person's groups map to: admin if any group says so, else member. */
export async function mappedRole(trx: DbOrTransaction, scimUserId: string): Promise<'admin' | 'member'> {
  const groups = await groupsOfUsers(trx, [scimUserId]);
  return groups.some((group) => group.role === 'admin') ? 'admin' : 'member';
}

/**
 * The account a provisioned person is, once there is one: the one recorded, else the one holding
 * the address (an invitee who has since signed up), which is then recorded.
 */
export async function accountOf(trx: DbOrTransaction, row: ScimUserRow) {
  if (row.user_id) return findUserById(trx, row.user_id);
  const account = await findUserByEmail(trx, row.email);
  if (account) await updateScimUser(trx, row.id, { user_id: account.id });
  return account;
}

/**
 * SCIM Users of one organisation: each provisioned person is invited and seated (or joined, with an
 * account), deactivating or deleting takes the seat back and ends their machines at their next
 * check, reactivating seats them again (409 `seats_full` when none is free, as at creation). The
 * owner is never deactivated.
 */
export function createScimUsers({ db, clock, provisioning, publicUrl }: ScimUsersDeps) {
  async function event(
    trx: DbOrTransaction,
    type: SecurityEventType,
    caller: ScimCaller,
    row: ScimUserRow,
    userId: string | null,
    details: Record<string, unknown> = {},
  ) {
    await recordSecurityEvent(trx, clock, {
      type,
      severity: type === securityEventTypes.scimUserCreated ? 'info' : 'warning',
      userId,
      meta: caller.actor.meta,
      details: {
        organisation_id: caller.organisationId,
        scim_token_id: caller.actor.tokenId,
        scim_user_id: row.id,
        user_name: row.user_name,
        email: row.email,
        ...details,
      },
    });
  }

  /** Records a refusal outside the refused change's transaction, which rolls back. */
  async function refused(caller: ScimCaller, row: ScimUserRow, error: HttpError, userId: string | null) {
    await event(db, securityEventTypes.scimRefused, caller, row, userId, { refused: error.code });
  }

  async function answer(row: ScimUserRow, withGroups = true): Promise<ScimUser> {
    const groups = withGroups ? await groupsOfUsers(db, [row.id]) : undefined;
    return toScimUser(
      row,
      groups?.map((group) => ({ id: group.id, display_name: group.display_name })),
      publicUrl,
    );
  }

  async function existing(trx: DbOrTransaction, caller: ScimCaller, id: string): Promise<ScimUserRow> {
    const row = await findScimUser(trx, caller.organisationId, id);
    if (!row) throw scimNotFound('User', id);
    return row;
  }

  async function assertUnique(
    trx: DbOrTransaction,
    caller: ScimCaller,
    fields: UserFields,
    self: string | null,
  ) {
    const [byName] = await listScimUsers(
      trx,
      caller.organisationId,
      [['user_name_key', fields.userName.toLowerCase()]],
      0,
      1,
    );
    if (byName && byName.id !== self)
      throw scimUniqueness(`A user with userName ${fields.userName} exists already`);
    if (fields.externalId) {
      const [byExternal] = await listScimUsers(
        trx,
        caller.organisationId,
        [['external_id', fields.externalId]],
        0,
        1,
      );
      if (byExternal && byExternal.id !== self)
        throw scimUniqueness(`A user with externalId ${fields.externalId} exists already`);
    }
  }

  /** Writes `fields` over the row and moves the seat as `active` changed; the owner is refused. */
  async function change(
    caller: ScimCaller,
    id: string,
    next: (row: ScimUserRow) => UserFields,
  ): Promise<ScimUser> {
    let refusal: { row: ScimUserRow; error: HttpError; userId: string | null } | undefined;
    try {
      const row = await db.transaction().execute(async (trx) => {
        const before = await existing(trx, caller, id);
        const fields = next(before);
        await assertUnique(trx, caller, fields, before.id);
        const account = await accountOf(trx, before);
        const person = { email: before.email, userId: account?.id ?? null };
        const wasActive = before.active === 1;
        if (
          wasActive &&
          !fields.active &&
          account &&
          (await provisioning.isOwner(trx, caller.organisationId, account.id))
        ) {
          refusal = { row: before, error: ownerRefused(), userId: account.id };
          throw refusal.error;
        }
        const after: ScimUserRow = {
          ...before,
          user_name: fields.userName,
          user_name_key: fields.userName.toLowerCase(),
          external_id: fields.externalId,
          email: fields.email,
          display_name: fields.displayName,
          given_name: fields.givenName,
          family_name: fields.familyName,
          active: fields.active ? 1 : 0,
          updated_at: isoNow(clock),
        };
        await updateScimUser(trx, id, after);
        if (wasActive && !fields.active) {
          const machinesEnded = await provisioning.takeSeatBack(
            trx,
            caller.organisationId,
            person,
            caller.actor,
          );
          await event(trx, securityEventTypes.scimUserDeactivated, caller, after, person.userId, {
            machines_ended: machinesEnded,
          });
        } else if (!wasActive && fields.active) {
          const outcome = await reprovision(trx, caller, after);
          await event(trx, securityEventTypes.scimUserReactivated, caller, after, person.userId, { outcome });
        } else {
          await event(trx, securityEventTypes.scimUserUpdated, caller, after, person.userId, {
            changed: changedAttributes(userFieldsOf(before), fields),
          });
        }
        return after;
      });
      return answer(row);
    } catch (error) {
      if (refusal) await refused(caller, refusal.row, refusal.error, refusal.userId);
      if (error instanceof HttpError && error.code === 'seats_full')
        throw scimError(409, 'seats_full', error.message);
      if (isUniqueViolation(error)) throw scimUniqueness('Another user has that userName or externalId');
      throw error;
    }
  }

  /**
   * Seats a reactivated person again. As at creation, no seat free refuses the call (409
   * `seats_full`, its transaction undone, so they stay inactive): an active person holds a seat.
   */
  async function reprovision(trx: DbOrTransaction, caller: ScimCaller, row: ScimUserRow): Promise<string> {
    const account = await accountOf(trx, row);
    return provisioning.provision(
      trx,
      caller.organisationId,
      { email: row.email, account, role: await mappedRole(trx, row.id) },
      caller.actor,
    );
  }

  return {
    async list(caller: ScimCaller, query: ScimListQuery, withGroups: boolean) {
      const where: [UserColumn, string][] = query.filter
        ? readFilter(query.filter, Object.keys(FILTERABLE)).map(({ attribute, value }) => {
            const column = FILTERABLE[attribute] ?? 'id';
            return [column, column === 'user_name_key' || column === 'email' ? value.toLowerCase() : value];
          })
        : [];
      return scimListPage(query, {
        total: () => countScimUsers(db, caller.organisationId, where),
        rows: (offset, limit) => listScimUsers(db, caller.organisationId, where, offset, limit),
        resources: async (rows) => {
          const groups = withGroups
            ? await groupsOfUsers(
                db,
                rows.map((row) => row.id),
              )
            : [];
          return rows.map((row) =>
            toScimUser(
              row,
              withGroups
                ? groups
                    .filter((group) => group.scim_user_id === row.id)
                    .map((group) => ({ id: group.id, display_name: group.display_name }))
                : undefined,
              publicUrl,
            ),
          );
        },
      });
    },

    async get(caller: ScimCaller, id: string, withGroups: boolean): Promise<ScimUser> {
      return answer(await existing(db, caller, id), withGroups);
    },

    /** Provisions a person: invited (or joined) with a seat. 409 when the userName exists or no seat is free. */
    async create(caller: ScimCaller, body: unknown): Promise<ScimUser> {
      const fields = readUser(body);
      try {
        const row = await db.transaction().execute(async (trx) => {
          await assertUnique(trx, caller, fields, null);
          const now = isoNow(clock);
          const account = await findUserByEmail(trx, fields.email);
          const row: ScimUserRow = {
            id: randomUUID(),
            organisation_id: caller.organisationId,
            user_name: fields.userName,
            user_name_key: fields.userName.toLowerCase(),
            external_id: fields.externalId,
            email: fields.email,
            display_name: fields.displayName,
            given_name: fields.givenName,
            family_name: fields.familyName,
            active: fields.active ? 1 : 0,
            user_id: account?.id ?? null,
            created_at: now,
            updated_at: now,
          };
          await insertScimUser(trx, row);
          const outcome = fields.active
            ? await provisioning.provision(
                trx,
                caller.organisationId,
                { email: fields.email, account, role: 'member' },
                caller.actor,
              )
            : 'inactive';
          await event(trx, securityEventTypes.scimUserCreated, caller, row, account?.id ?? null, { outcome });
          return row;
        });
        return await answer(row);
      } catch (error) {
        if (error instanceof HttpError && error.code === 'seats_full')
          throw scimError(409, 'seats_full', error.message);
        if (isUniqueViolation(error))
          throw scimUniqueness(`A user with userName ${fields.userName} exists already`);
        throw error;
      }
    },

    replace(caller: ScimCaller, id: string, body: unknown): Promise<ScimUser> {
      const fields = readUser(body);
      return change(caller, id, () => fields);
    },

    patch(caller: ScimCaller, id: string, body: unknown): Promise<ScimUser> {
      const operations = readPatch(body);
      return change(caller, id, (row) => patchUser(userFieldsOf(row), operations));
    },

    /** Deletes the person: they leave the organisation (seat freed, machines ended); the owner is refused. */
    async remove(caller: ScimCaller, id: string): Promise<void> {
      let refusal: { row: ScimUserRow; userId: string } | undefined;
      try {
        await db.transaction().execute(async (trx) => {
          const row = await existing(trx, caller, id);
          const account = await accountOf(trx, row);
          if (account && (await provisioning.isOwner(trx, caller.organisationId, account.id))) {
            refusal = { row, userId: account.id };
            throw ownerRefused();
          }
          await provisioning.remove(
            trx,
            caller.organisationId,
            { email: row.email, userId: account?.id ?? null },
            caller.actor,
          );
          await deleteScimUser(trx, row.id);
          await event(trx, securityEventTypes.scimUserDeleted, caller, row, account?.id ?? null);
        });
      } catch (error) {
        if (refusal) await refused(caller, refusal.row, ownerRefused(), refusal.userId);
        throw error;
      }
    },
  };
}

function changedAttributes(before: UserFields, after: UserFields): string[] {
  return (Object.keys(after) as (keyof UserFields)[]).filter((key) => before[key] !== after[key]);
}

export type ScimUsers = ReturnType<typeof createScimUsers>;
