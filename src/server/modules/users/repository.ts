import type { DbOrTransaction } from '../../db/database.js';
import type { NewUserRow, UserRow, UserUpdate } from '../../db/tables.js';

export const findUserById = (db: DbOrTransaction, id: string): Promise<UserRow | undefined> =>
  db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

export const findUserByEmail = (db: DbOrTransaction, email: string): Promise<UserRow | undefined> =>
  db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();

export async function insertUser(db: DbOrTransaction, user: NewUserRow): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

export async function updateUser(
  db: DbOrTransaction,
  id: string,
  changes: UserUpdate,
): Promise<UserRow | undefined> {
  return db.updateTable('users').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
}

/** Writes new preferences only if the stored ones are still `expected`; undefined when they changed. */
export async function replacePreferences(
  db: DbOrTransaction,
  id: string,
  expected: string,
  next: string,
  now: string,
): Promise<UserRow | undefined> {
  return db
    .updateTable('users')
    .set({ preferences: next, updated_at: now })
    .where('id', '=', id)
    .where('preferences', '=', expected)
    .returningAll()
    .executeTakeFirst();
}

/** Ends every access token of the user by moving the version they must carry. */
export async function bumpSessionVersion(db: DbOrTransaction, id: string): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ session_version: eb('session_version', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

export async function countAdmins(db: DbOrTransaction): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .where('role', '=', 'admin')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
