import { sql } from 'kysely';
import type { z } from 'zod';
import type { adminUserListQuerySchema } from '../../shared/api/admin.js';
import type { Paged } from '../../shared/api/paging.js';
import type { DbOrTransaction } from '../platform/db/database.js';
import { fetchPage, matchesSearch } from '../platform/db/paging.js';
import type { AccountColumns } from '../identity/index.js';

const userColumns = [
  'users.id',
  'users.email',
  'users.full_name',
  'users.company',
  'users.role',
  'users.status',
  'users.email_verified_at',
  'users.created_at',
  'users.updated_at',
] as const;

/** Accounts with the start of their newest session. */
const usersWithLastSignIn = (db: DbOrTransaction) =>
  db
    .selectFrom('users')
    .select(userColumns)
    .select((eb) =>
      eb
        .selectFrom('refresh_token_families')
        .select((inner) => inner.fn.max('refresh_token_families.created_at').as('started'))
        .whereRef('refresh_token_families.user_id', '=', 'users.id')
        .as('last_sign_in_at'),
    );

/** An account as the console lists it: its columns and the start of its newest session. */
export type ListedUser = AccountColumns & { last_sign_in_at: string | null };

/** The sort expression of each sortable field; names sort without regard to case, absent ones first. */
const sortExpressions = {
  created_at: sql.ref('users.created_at'),
  updated_at: sql.ref('users.updated_at'),
  email: sql.ref('users.email'),
  full_name: sql`lower(coalesce(${sql.ref('users.full_name')}, ''))`,
  role: sql.ref('users.role'),
  status: sql.ref('users.status'),
};

/** One page of accounts, filtered and sorted as the console asks. */
export async function listAdminUsers(
  db: DbOrTransaction,
  query: z.output<typeof adminUserListQuerySchema>,
): Promise<Paged<ListedUser>> {
  let select = usersWithLastSignIn(db);
  if (query.search)
    select = select.where(matchesSearch(['users.email', 'users.full_name', 'users.company'], query.search));
  if (query.role) select = select.where('users.role', '=', query.role);
  if (query.status) select = select.where('users.status', '=', query.status);
  if (query.verification)
    select = select.where(
      'users.email_verified_at',
      query.verification === 'confirmed' ? 'is not' : 'is',
      null,
    );
  if (query.from) select = select.where('users.created_at', '>=', query.from);
  if (query.to) select = select.where('users.created_at', '<=', query.to);
  const sort = query.sort ?? { field: 'created_at', direction: 'desc' };
  select = select
    .orderBy(sortExpressions[sort.field], sort.direction)
    // Equal values (a role, an owner) list newest first; the id settles the rest.
    .$if(sort.field !== 'created_at', (ordered) => ordered.orderBy('users.created_at', 'desc'))
    .orderBy('users.id', sort.direction);
  return fetchPage(select, query);
}

export const findAdminUser = (db: DbOrTransaction, id: string): Promise<ListedUser | undefined> =>
  usersWithLastSignIn(db).where('users.id', '=', id).executeTakeFirst();

export async function countLicensesOfUser(db: DbOrTransaction, id: string): Promise<number> {
  const row = await db
    .selectFrom('licenses')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('user_id', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** What the account holds: its licenses, its machines holding a seat, its payments. */
export async function countsOfUser(
  db: DbOrTransaction,
  id: string,
): Promise<{ licenses: number; active_activations: number; payments: number }> {
  const [licenses, activations, payments] = await Promise.all([
    countLicensesOfUser(db, id),
    db
      .selectFrom('activations')
      .innerJoin('licenses', 'licenses.id', 'activations.license_id')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('licenses.user_id', '=', id)
      .where('activations.deactivated_at', 'is', null)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('payments')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('user_id', '=', id)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    licenses,
    active_activations: Number(activations.count),
    payments: Number(payments.count),
  };
}

/** The ids of the active administrators, in id order. */
export const activeAdminIds = async (db: DbOrTransaction): Promise<string[]> =>
  (
    await db
      .selectFrom('users')
      .select('id')
      .where('role', '=', 'admin')
      .where('status', '=', 'active')
      .orderBy('id')
      .execute()
  ).map((row) => row.id);
