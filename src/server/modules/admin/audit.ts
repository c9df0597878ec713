import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../clock.js';
import type { DbOrTransaction } from '../../db/database.js';
import type { SecuritySeverity } from '../../db/tables.js';
import { currentUser } from '../../plugins/authenticate.js';
import { type RequestMeta, requestMeta } from '../../request-meta.js';
import { recordSecurityEvent, type SecurityEventType } from '../security/security-events.js';

/** The administrator behind a write and where the request came from. */
export interface AdminActor {
  id: string;
  meta: RequestMeta | null;
}

/** The signed-in administrator of a request behind `requireAdmin`. */
export const actorOf = (request: FastifyRequest): AdminActor => ({
  id: currentUser(request).user.id,
  meta: requestMeta(request),
});

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
