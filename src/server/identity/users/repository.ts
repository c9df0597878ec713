import { sql } from 'kysely';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { NewUserRow, UserRow, UserUpdate } from '../../platform/db/tables.js';

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

/** The signing-up value of a column for an unconfirmed account; a confirmed one keeps its own. */
const whileUnconfirmed = <T>(column: string) =>
  sql<T>`case when users.email_verified_at is null
    then excluded.${sql.ref(column)} else users.${sql.ref(column)} end`;

/**
 * A sign-up's write, one statement whatever holds the address: creates the account; or gives a
 * still-unconfirmed account the newest sign-up's password, name and language and ends its sessions; or,
 * for a confirmed account, writes back what is there. Returns the account's id and whether it
 * was confirmed, so the caller learns which case it was without a statement of its own.
 */
export async function upsertSignUp(
  db: DbOrTransaction,
  candidate: NewUserRow,
): Promise<{ id: string; email_verified_at: string | null }> {
  return db
    .insertInto('users')
    .values(candidate)
    .onConflict((conflict) =>
      conflict.column('email').doUpdateSet({
        password_hash: whileUnconfirmed<string>('password_hash'),
        full_name: whileUnconfirmed<string | null>('full_name'),
        preferences: whileUnconfirmed<string>('preferences'),
        updated_at: whileUnconfirmed<string>('updated_at'),
        session_version: sql<number>`case when users.email_verified_at is null
          then users.session_version + 1 else users.session_version end`,
      }),
    )
    .returning(['id', 'email_verified_at'])
    .executeTakeFirstOrThrow();
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

/**
 * Takes the account's row lock: an update that changes nothing still locks its row on
 * PostgreSQL until the transaction ends; SQLite runs one write transaction at a time anyway.
 */
export async function lockUserRow(db: DbOrTransaction, id: string): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', id)
    .execute();
}

/** Deletes the account (the database cascades to what it owns); false when there was none. */
export async function deleteUserRow(db: DbOrTransaction, id: string): Promise<boolean> {
  const deleted = await db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
  return deleted.numDeletedRows > 0n;
}
