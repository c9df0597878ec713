import { type ExpressionBuilder, sql } from 'kysely';
import type { z } from 'zod';
import type { adminLicenseListQuerySchema } from '../../shared/api/admin.js';
import type { LicenseStatus } from '../../shared/api/licenses.js';
import type { Paged } from '../../shared/api/paging.js';
import type { DbOrTransaction } from '../platform/db/database.js';
import { fetchPage, likePattern, matchesSearch } from '../platform/db/paging.js';
import type { Database, LicenseRow, LicensesTable } from '../platform/db/tables.js';

/** Keys are stored upper case in dash-separated groups; a typed fragment is matched the same way. */
const KEY_FRAGMENT = /^[0-9A-Z]+$/;
const keyFragment = (term: string) =>
  term.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');

/** A never-expiring license sorts after every dated one, on both databases. */
const expirySortKey = sql`coalesce(${sql.ref('licenses.expires_at')}, '9999-12-31T23:59:59.999Z')`;
const sortExpressions = {
  created_at: sql.ref('licenses.created_at'),
  updated_at: sql.ref('licenses.updated_at'),
  expires_at: expirySortKey,
  user_email: sql.ref('users.email'),
  plan_name: sql`lower(${sql.ref('plans.name')})`,
};

/** Rows whose effective status (what people see, see `effectiveStatus`) is `status` at `now`. */
function hasEffectiveStatus(status: LicenseStatus, now: string) {
  return (eb: ExpressionBuilder<Database & { licenses: LicensesTable }, 'licenses'>) => {
    const unexpired = eb.or([eb('licenses.expires_at', 'is', null), eb('licenses.expires_at', '>', now)]);
    switch (status) {
      case 'active':
        return eb.and([eb('licenses.status', '=', 'active'), unexpired]);
      case 'expired':
        return eb.or([
          eb('licenses.status', '=', 'expired'),
          eb.and([
            eb('licenses.status', '=', 'active'),
            eb('licenses.expires_at', '<=', now),
            eb('licenses.trial_ends_at', 'is', null),
          ]),
        ]);
      case 'trial_expired':
        return eb.and([
          eb('licenses.status', '=', 'active'),
          eb('licenses.expires_at', '<=', now),
          eb('licenses.trial_ends_at', 'is not', null),
        ]);
      default:
        return eb('licenses.status', '=', status);
    }
  };
}

/** One page of every user's licenses, filtered and sorted as the console asks, `nowIso` deciding expiry. */
export async function listAdminLicenses(
  db: DbOrTransaction,
  query: z.output<typeof adminLicenseListQuerySchema>,
  nowIso: string,
): Promise<Paged<LicenseRow>> {
  let select = db
    .selectFrom('licenses')
    .innerJoin('users', 'users.id', 'licenses.user_id')
    .innerJoin('plans', 'plans.id', 'licenses.plan_id')
    .selectAll('licenses');
  if (query.status) select = select.where(hasEffectiveStatus(query.status, nowIso));
  if (query.planId) select = select.where('licenses.plan_id', '=', query.planId);
  if (query.userId) select = select.where('licenses.user_id', '=', query.userId);
  if (query.from) select = select.where('licenses.created_at', '>=', query.from);
  if (query.to) select = select.where('licenses.created_at', '<=', query.to);
  if (query.search) {
    const fragment = keyFragment(query.search);
    const byEmail = matchesSearch(['users.email'], query.search);
    select = KEY_FRAGMENT.test(fragment)
      ? select.where((eb) =>
          eb.or([
            byEmail,
            sql<boolean>`replace(${sql.ref('licenses.license_key')}, '-', '') like ${likePattern(fragment)} escape '\\'`,
          ]),
        )
      : select.where(byEmail);
  }
  const sort = query.sort ?? { field: 'created_at', direction: 'desc' };
  select = select
    .orderBy(sortExpressions[sort.field], sort.direction)
    // Equal values (a role, an owner) list newest first; the id settles the rest.
    .$if(sort.field !== 'created_at', (ordered) => ordered.orderBy('licenses.created_at', 'desc'))
    .orderBy('licenses.id', sort.direction);
  return fetchPage(select, query);
}

/** The e-mail of each account among `userIds`. */
export async function emailsOfUsers(db: DbOrTransaction, userIds: string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'email']).where('id', 'in', userIds).execute();
  return new Map(rows.map((row) => [row.id, row.email]));
}

/** Members holding a seat now, per organisation (none listed for one where nobody does). */
export async function seatsHeldByOrganisation(
  db: DbOrTransaction,
  organisationIds: string[],
): Promise<Map<string, number>> {
  if (organisationIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('organisation_members')
    .select((eb) => ['organisation_id', eb.fn.countAll<number | string>().as('held')])
    .where('organisation_id', 'in', organisationIds)
    .where('seat_assigned_at', 'is not', null)
    .groupBy('organisation_id')
    .execute();
  return new Map(rows.map((row) => [row.organisation_id, Number(row.held)]));
}

/** A seat-based plan's machines per seat (its `max_activations`), per plan id. */
export async function machinesPerSeat(db: DbOrTransaction, planIds: string[]): Promise<Map<string, number>> {
  if (planIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('plans')
    .select(['id', 'max_activations'])
    .where('id', 'in', planIds)
    .execute();
  return new Map(rows.map((row) => [row.id, Number(row.max_activations)]));
}
