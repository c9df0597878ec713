import type { SecurityEvent } from '../../../shared/api/admin.js';
import type { Paged } from '../../../shared/api/paging.js';
import type { DbOrTransaction } from '../db/database.js';
import { fetchPage, matchesSearch } from '../db/paging.js';
import type { SecurityEventRow } from '../db/tables.js';

/** Security events with the e-mails of the account concerned and of the actor (null once deleted). */
const securityEventsWithEmails = (db: DbOrTransaction) =>
  db
    .selectFrom('security_events')
    .leftJoin('users as subject', 'subject.id', 'security_events.user_id')
    .leftJoin('users as actor', 'actor.id', 'security_events.actor_id')
    .selectAll('security_events')
    .select(['subject.email as user_email', 'actor.email as actor_email']);

/** Deletes the security events older than `before` (RETENTION_SECURITY_EVENTS_DAYS); answers how many. */
export async function deleteSecurityEventsBefore(db: DbOrTransaction, before: string): Promise<number> {
  const result = await db.deleteFrom('security_events').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function insertSecurityEvent(db: DbOrTransaction, row: SecurityEventRow): Promise<void> {
  await db.insertInto('security_events').values(row).execute();
}

/** `details` is JSON text written by the server; anything unreadable is shown as such rather than failing the page. */
function parseDetails(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : { value: parsed };
  } catch {
    return { unreadable: text };
  }
}

const toSecurityEvent = (
  row: SecurityEventRow & { user_email: string | null; actor_email: string | null },
): SecurityEvent => ({
  id: row.id,
  type: row.type,
  severity: row.severity,
  user_id: row.user_id,
  user_email: row.user_email,
  actor_id: row.actor_id,
  actor_email: row.actor_email,
  ip: row.ip,
  user_agent: row.user_agent,
  details: parseDetails(row.details),
  created_at: row.created_at,
});

export interface SecurityEventFilters {
  page: number;
  perPage: number;
  search?: string | undefined;
  sort?: { field: 'created_at' | 'type' | 'severity'; direction: 'asc' | 'desc' } | undefined;
  type?: string[] | undefined;
  severity?: SecurityEvent['severity'] | undefined;
  userId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/** One page of the security log, newest first unless sorted otherwise. */
export async function listSecurityEvents(
  db: DbOrTransaction,
  filters: SecurityEventFilters,
): Promise<Paged<SecurityEvent>> {
  let select = securityEventsWithEmails(db);
  if (filters.type && filters.type.length > 0)
    select = select.where('security_events.type', 'in', filters.type);
  if (filters.severity) select = select.where('security_events.severity', '=', filters.severity);
  if (filters.userId) {
    const userId = filters.userId;
    select = select.where((eb) =>
      eb.or([eb('security_events.user_id', '=', userId), eb('security_events.actor_id', '=', userId)]),
    );
  }
  if (filters.from) select = select.where('security_events.created_at', '>=', filters.from);
  if (filters.to) select = select.where('security_events.created_at', '<=', filters.to);
  if (filters.search) {
    select = select.where(
      matchesSearch(
        [
          'security_events.type',
          'security_events.ip',
          'security_events.details',
          'subject.email',
          'actor.email',
        ],
        filters.search,
      ),
    );
  }
  const sort = filters.sort ?? { field: 'created_at', direction: 'desc' };
  select = select
    .orderBy(`security_events.${sort.field}`, sort.direction)
    // Within one type or severity, newest first; the id settles events of the same instant.
    .$if(sort.field !== 'created_at', (ordered) => ordered.orderBy('security_events.created_at', 'desc'))
    .orderBy('security_events.id', sort.direction);
  const page = await fetchPage(select, filters);
  return { ...page, data: page.data.map(toSecurityEvent) };
}

export async function findSecurityEvent(db: DbOrTransaction, id: string): Promise<SecurityEvent | undefined> {
  const row = await securityEventsWithEmails(db).where('security_events.id', '=', id).executeTakeFirst();
  return row && toSecurityEvent(row);
}

/** The newest events, newest first. */
export async function recentSecurityEvents(db: DbOrTransaction, limit: number): Promise<SecurityEvent[]> {
  const rows = await securityEventsWithEmails(db)
    .orderBy('security_events.created_at', 'desc')
    .orderBy('security_events.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toSecurityEvent);
}

/** How many events of each severity were recorded since `since`. */
export async function countSecurityEventsBySeverity(
  db: DbOrTransaction,
  since: string,
): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('security_events')
    .select(['severity', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('created_at', '>=', since)
    .groupBy('severity')
    .execute();
  return new Map(rows.map((row) => [row.severity, Number(row.count)]));
}

/** What an export of the security log takes: the list's filters, or one organisation's events. */
export interface SecurityEventExportFilters {
  from?: string | undefined;
  to?: string | undefined;
  type?: string[] | undefined;
  severity?: SecurityEvent['severity'] | undefined;
  userId?: string | undefined;
  /** Events whose details name this organisation (every organisation change does). */
  organisationId?: string | undefined;
}

/**
 * The page of the security log after `after`, oldest first, for an export: keyed on the time and
 * then the id, so each page is one indexed range and the export's memory does not grow with it.
 */
export async function securityEventsAfter(
  db: DbOrTransaction,
  filters: SecurityEventExportFilters,
  after: SecurityEvent | undefined,
  limit: number,
): Promise<SecurityEvent[]> {
  let select = securityEventsWithEmails(db);
  if (filters.type && filters.type.length > 0)
    select = select.where('security_events.type', 'in', filters.type);
  if (filters.severity) select = select.where('security_events.severity', '=', filters.severity);
  if (filters.userId) {
    const userId = filters.userId;
    select = select.where((eb) =>
      eb.or([eb('security_events.user_id', '=', userId), eb('security_events.actor_id', '=', userId)]),
    );
  }
  // The details are JSON the server wrote itself, with no spaces: the id is matched as written.
  if (filters.organisationId)
    select = select.where(
      'security_events.details',
      'like',
      `%"organisation_id":"${filters.organisationId}"%`,
    );
  if (filters.from) select = select.where('security_events.created_at', '>=', filters.from);
  if (filters.to) select = select.where('security_events.created_at', '<=', filters.to);
  // A row-value comparison, which both databases answer from the index on the time; the same
  // condition written with OR had SQLite sort the whole rest of the log for every page.
  if (after)
    select = select.where((eb) =>
      eb(
        eb.refTuple('security_events.created_at', 'security_events.id'),
        '>',
        eb.tuple(after.created_at, after.id),
      ),
    );
  const rows = await select
    .orderBy('security_events.created_at', 'asc')
    .orderBy('security_events.id', 'asc')
    .limit(limit)
    .execute();
  return rows.map(toSecurityEvent);
}

/** What of an event's details names a person rather than what happened. */
const PERSONAL_DETAILS = new Set(['email', 'full_name', 'company', 'name', 'new_email', 'old_email', 'ip']);

/**
 * Keeps the events of an erased account with a pseudonymous actor: its id stays (the account's row
 * now names no one), while the address, the browser and any e-mail or name in the details go.
 */
export async function pseudonymiseSecurityEvents(db: DbOrTransaction, userId: string): Promise<void> {
  const rows = await db
    .selectFrom('security_events')
    .select(['id', 'details'])
    .where((eb) => eb.or([eb('user_id', '=', userId), eb('actor_id', '=', userId)]))
    .execute();
  for (const row of rows) {
    const details = parseDetails(row.details);
    const kept = details
      ? Object.fromEntries(Object.entries(details).filter(([key]) => !PERSONAL_DETAILS.has(key)))
      : null;
    await db
      .updateTable('security_events')
      .set({ ip: null, user_agent: null, details: kept ? JSON.stringify(kept) : null })
      .where('id', '=', row.id)
      .execute();
  }
}

/** The account's own events, oldest first, for its data export. */
export async function securityEventsOfUser(db: DbOrTransaction, userId: string): Promise<SecurityEventRow[]> {
  return db
    .selectFrom('security_events')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'asc')
    .execute();
}
