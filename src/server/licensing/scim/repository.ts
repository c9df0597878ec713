import type { DbOrTransaction } from '../../platform/db/database.js';
import type { ScimGroupRow, ScimTokenRow, ScimUserRow } from '../../platform/db/tables-scim.js';

// --- tokens ---

export const findScimToken = (db: DbOrTransaction, organisationId: string) =>
  db.selectFrom('scim_tokens').selectAll().where('organisation_id', '=', organisationId).executeTakeFirst();

export const findScimTokenByHash = (db: DbOrTransaction, tokenHash: string) =>
  db.selectFrom('scim_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();

/** Writes the organisation's token, replacing the one it had (a rotation). */
export async function putScimToken(db: DbOrTransaction, row: ScimTokenRow): Promise<void> {
  await db.deleteFrom('scim_tokens').where('organisation_id', '=', row.organisation_id).execute();
  await db.insertInto('scim_tokens').values(row).execute();
}

export async function deleteScimToken(db: DbOrTransaction, organisationId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('scim_tokens')
    .where('organisation_id', '=', organisationId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Marks the token used, at most once a minute per token (a provisioning run is thousands of calls). */
export async function touchScimToken(db: DbOrTransaction, id: string, at: string, before: string) {
  await db
    .updateTable('scim_tokens')
    .set({ last_used_at: at })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', before)]))
    .execute();
}

// --- users ---

export type UserColumn = 'id' | 'user_name_key' | 'external_id' | 'email';

export async function insertScimUser(db: DbOrTransaction, row: ScimUserRow): Promise<void> {
  await db.insertInto('scim_users').values(row).execute();
}

export const findScimUser = (db: DbOrTransaction, organisationId: string, id: string) =>
  db
    .selectFrom('scim_users')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .executeTakeFirst();

export async function updateScimUser(
  db: DbOrTransaction,
  id: string,
  changes: Partial<Omit<ScimUserRow, 'id' | 'organisation_id'>>,
): Promise<void> {
  await db.updateTable('scim_users').set(changes).where('id', '=', id).execute();
}

export async function deleteScimUser(db: DbOrTransaction, id: string): Promise<void> {
  await db.deleteFrom('scim_group_members').where('scim_user_id', '=', id).execute();
  await db.deleteFrom('scim_users').where('id', '=', id).execute();
}

function usersWhere(db: DbOrTransaction, organisationId: string, where: [UserColumn, string][]) {
  let select = db.selectFrom('scim_users').where('organisation_id', '=', organisationId);
  for (const [column, value] of where) select = select.where(column, '=', value);
  return select;
}

/** One page of the organisation's provisioned users matching every equality, oldest first. */
export const listScimUsers = (
  db: DbOrTransaction,
  organisationId: string,
  where: [UserColumn, string][],
  offset: number,
  limit: number,
) =>
  usersWhere(db, organisationId, where)
    .selectAll()
    .orderBy('created_at')
    .orderBy('id')
    .offset(offset)
    .limit(limit)
    .execute();

export async function countScimUsers(
  db: DbOrTransaction,
  organisationId: string,
  where: [UserColumn, string][],
  activeOnly = false,
): Promise<number> {
  let select = usersWhere(db, organisationId, where);
  if (activeOnly) select = select.where('active', '=', 1);
  const row = await select
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The users of these ids in the organisation (a group's members as a client names them). */
export const scimUsersByIds = (db: DbOrTransaction, organisationId: string, ids: readonly string[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('scim_users')
        .selectAll()
        .where('organisation_id', '=', organisationId)
        .where('id', 'in', ids)
        .execute();

// --- groups ---

export async function insertScimGroup(db: DbOrTransaction, row: ScimGroupRow): Promise<void> {
  await db.insertInto('scim_groups').values(row).execute();
}

export const findScimGroup = (db: DbOrTransaction, organisationId: string, id: string) =>
  db
    .selectFrom('scim_groups')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id)
    .executeTakeFirst();

export async function updateScimGroup(
  db: DbOrTransaction,
  id: string,
  changes: Partial<Omit<ScimGroupRow, 'id' | 'organisation_id'>>,
): Promise<void> {
  await db.updateTable('scim_groups').set(changes).where('id', '=', id).execute();
}

export async function deleteScimGroup(db: DbOrTransaction, id: string): Promise<void> {
  await db.deleteFrom('scim_group_members').where('group_id', '=', id).execute();
  await db.deleteFrom('scim_groups').where('id', '=', id).execute();
}

export type GroupColumn = 'id' | 'display_name' | 'external_id';

function groupsWhere(db: DbOrTransaction, organisationId: string, where: [GroupColumn, string][]) {
  let select = db.selectFrom('scim_groups').where('organisation_id', '=', organisationId);
  for (const [column, value] of where) select = select.where(column, '=', value);
  return select;
}

export const listScimGroups = (
  db: DbOrTransaction,
  organisationId: string,
  where: [GroupColumn, string][],
  offset: number,
  limit: number,
) =>
  groupsWhere(db, organisationId, where)
    .selectAll()
    .orderBy('created_at')
    .orderBy('id')
    .offset(offset)
    .limit(limit)
    .execute();

export async function countScimGroups(
  db: DbOrTransaction,
  organisationId: string,
  where: [GroupColumn, string][],
): Promise<number> {
  const row = await groupsWhere(db, organisationId, where)
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The groups' members with their userNames, for the answers. */
export const membersOfGroups = (db: DbOrTransaction, groupIds: readonly string[]) =>
  groupIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('scim_group_members')
        .innerJoin('scim_users', 'scim_users.id', 'scim_group_members.scim_user_id')
        .select(['scim_group_members.group_id', 'scim_users.id', 'scim_users.user_name'])
        .where('scim_group_members.group_id', 'in', groupIds)
        .orderBy('scim_users.created_at')
        .execute();

/** The groups each of these users is in, with the role each maps to. */
export const groupsOfUsers = (db: DbOrTransaction, userIds: readonly string[]) =>
  userIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('scim_group_members')
        .innerJoin('scim_groups', 'scim_groups.id', 'scim_group_members.group_id')
        .select([
          'scim_group_members.scim_user_id',
          'scim_groups.id',
          'scim_groups.display_name',
          'scim_groups.role',
        ])
        .where('scim_group_members.scim_user_id', 'in', userIds)
        .execute();

export const memberIdsOfGroup = async (db: DbOrTransaction, groupId: string): Promise<string[]> =>
  (
    await db.selectFrom('scim_group_members').select('scim_user_id').where('group_id', '=', groupId).execute()
  ).map((row) => row.scim_user_id);

export async function addGroupMembers(db: DbOrTransaction, groupId: string, userIds: readonly string[]) {
  for (const userId of userIds)
    await db
      .insertInto('scim_group_members')
      .values({ group_id: groupId, scim_user_id: userId })
      .onConflict((oc) => oc.doNothing())
      .execute();
}

export async function removeGroupMembers(db: DbOrTransaction, groupId: string, userIds: readonly string[]) {
  if (userIds.length === 0) return;
  await db
    .deleteFrom('scim_group_members')
    .where('group_id', '=', groupId)
    .where('scim_user_id', 'in', userIds)
    .execute();
}

/** The organisation's groups with how many members each, for the portal. */
export const groupsWithCounts = (db: DbOrTransaction, organisationId: string) =>
  db
    .selectFrom('scim_groups')
    .leftJoin('scim_group_members', 'scim_group_members.group_id', 'scim_groups.id')
    .select((eb) => [
      'scim_groups.id',
      'scim_groups.display_name',
      'scim_groups.role',
      eb.fn.count<number | string>('scim_group_members.scim_user_id').as('members'),
    ])
    .where('scim_groups.organisation_id', '=', organisationId)
    .groupBy(['scim_groups.id', 'scim_groups.display_name', 'scim_groups.role'])
    .orderBy('scim_groups.display_name')
    .execute();
