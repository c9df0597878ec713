import { randomUUID } from 'node:crypto';
import type { SecurityEvent } from '../../../shared/api/admin.js';
import type { SecurityEventExportQuery } from '../../../shared/api/exports.js';
import { exportSecurityEvents } from './export.js';
import type { Paged } from '../../../shared/api/paging.js';
import { type Clock, isoNow } from '../clock.js';
import type { Db, DbOrTransaction } from '../db/database.js';
import type { SecuritySeverity } from '../db/tables.js';
import { notFound } from '../http-error.js';
import type { RequestMeta } from '../request-meta.js';
import {
  deleteSecurityEventsBefore,
  findSecurityEvent,
  insertSecurityEvent,
  listSecurityEvents,
  type SecurityEventFilters,
} from './repository.js';
import type { SecurityEventType } from './security-events.js';

export interface SecurityEventInput {
  type: SecurityEventType;
  severity: SecuritySeverity;
  userId?: string | null;
  actorId?: string | null;
  meta?: RequestMeta | null;
  details?: Record<string, unknown>;
  /** When it happened (ISO time), when written later than that; now by default. */
  at?: string;
}

/** Appends one row to the security log; callers pass their transaction so the event commits with the change. */
export async function recordSecurityEvent(
  db: DbOrTransaction,
  clock: Clock,
  event: SecurityEventInput,
): Promise<void> {
  // An event of a request made with an API token names the token.
  const apiTokenId = event.meta?.apiTokenId;
  const details = apiTokenId ? { ...event.details, api_token_id: apiTokenId } : event.details;
  await insertSecurityEvent(db, {
    id: randomUUID(),
    type: event.type,
    severity: event.severity,
    user_id: event.userId ?? null,
    actor_id: event.actorId ?? null,
    ip: event.meta?.ip ?? null,
    user_agent: event.meta?.userAgent ?? null,
    details: details ? JSON.stringify(details) : null,
    created_at: event.at ?? isoNow(clock),
  });
}

/** The administrator behind a write and where the request came from. */
export interface AdminActor {
  id: string;
  meta: RequestMeta | null;
}

/** Records an administrator's write in the caller's transaction, so the event commits with the change. */
export const recordAdminAction = (
  trx: DbOrTransaction,
  clock: Clock,
  actor: AdminActor,
  event: {
    type: SecurityEventType;
    severity: SecuritySeverity;
    userId: string | null;
    details: Record<string, unknown>;
  },
) => recordSecurityEvent(trx, clock, { ...event, actorId: actor.id, meta: actor.meta });

/**
 * Lets through at most one event per key (e.g. a client address) and interval, remembering at
 * most `keysKept` keys (the oldest forgotten first): for refusals anyone may provoke, so a flood
 * of them does not become a flood of security events.
 */
export function createEventThrottle(
  clock: Clock,
  { intervalMs, keysKept }: { intervalMs: number; keysKept: number },
) {
  const lastEvent = new Map<string, number>();
  return function shouldRecord(key: string): boolean {
    const now = clock.now().getTime();
    const last = lastEvent.get(key);
    if (last !== undefined && now - last < intervalMs) return false;
    lastEvent.delete(key);
    lastEvent.set(key, now);
    if (lastEvent.size > keysKept) {
      const oldest = lastEvent.keys().next().value;
      if (oldest !== undefined) lastEvent.delete(oldest);
    }
    return true;
  };
}

/** The security log as administrators read it (`/admin/security-events`). */
export function createSecurityEventsService({ db }: { db: Db }) {
  return {
    list: (filters: SecurityEventFilters): Promise<Paged<SecurityEvent>> => listSecurityEvents(db, filters),

    async get(id: string): Promise<SecurityEvent> {
      const event = await findSecurityEvent(db, id);
      if (!event) throw notFound('security_event_not_found', 'Security event not found');
      return event;
    },

    export: ({ format, ...filters }: SecurityEventExportQuery) => exportSecurityEvents(db, filters, format),
  };
}

export type SecurityEventsService = ReturnType<typeof createSecurityEventsService>;

// The dashboard's summary of the log, for admin: the repository stays the security log's own.
export { countSecurityEventsBySeverity, recentSecurityEvents } from './repository.js';

/** Deletes the security events older than `days` (RETENTION_SECURITY_EVENTS_DAYS); answers how many. */
export const pruneSecurityEvents = (db: DbOrTransaction, clock: Clock, days: number) =>
  deleteSecurityEventsBefore(db, new Date(clock.now().getTime() - days * 86_400_000).toISOString());

// An account's own events: for its data export, and kept pseudonymous once it is erased.
export { pseudonymiseSecurityEvents, securityEventsOfUser } from './repository.js';
