import type { AccountSession } from '../../../shared/api/auth.js';
import { type Clock, isoNow } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { notFound } from '../../platform/http-error.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import { deviceOf } from './new-sign-in-alert.js';
import {
  listLiveSessionsOfUser,
  revokeOtherSessionsOfUser,
  revokeSessionOfUser,
} from './refresh-tokens-repository.js';

/** The revocation reason of a session its owner ended from another one (told to that device as `signed_out_elsewhere`). */
const REVOKED_BY_OWNER = 'revoked_by_owner';

/**
 * The caller's own sessions (one per sign-in and device): listed with their device and last
 * activity, and ended one at a time or all but the current one. A session that ends stops its
 * access tokens at once (authentication checks the session is live) and its refresh token is
 * refused with the reason.
 */
export function createAccountSessions({ db, clock }: { db: Db; clock: Clock }) {
  return {
    async list(userId: string, currentId: string): Promise<AccountSession[]> {
      const rows = await listLiveSessionsOfUser(db, userId, isoNow(clock));
      const sessions = rows.map((row) => ({
        id: row.id,
        device: deviceOf(row.user_agent),
        ip: row.ip,
        signed_in_at: row.authenticated_at ?? row.created_at,
        last_active_at: row.last_refreshed_at ?? row.created_at,
        expires_at: row.expires_at,
        current: row.id === currentId,
      }));
      // This device first, then the most recently active.
      return sessions.sort(
        (a, b) => Number(b.current) - Number(a.current) || b.last_active_at.localeCompare(a.last_active_at),
      );
    },

    /** Ends one of the caller's live sessions (this one too, if named); 404 for any other id. */
    async revoke(userId: string, sessionId: string, meta: RequestMeta): Promise<string> {
      await db.transaction().execute(async (trx) => {
        const ended = await revokeSessionOfUser(trx, userId, sessionId, isoNow(clock), REVOKED_BY_OWNER);
        if (!ended) throw notFound('session_not_found', 'That session has ended already, or is not yours.');
        await recordSecurityEvent(trx, clock, {
          type: securityEventTypes.sessionRevoked,
          severity: 'info',
          userId,
          meta,
          details: { sessions: 1 },
        });
      });
      return 'Signed out of that session';
    },

    /** Ends every live session of the caller but the current one. */
    async revokeOthers(
      userId: string,
      currentId: string,
      meta: RequestMeta,
    ): Promise<{ message: string; ended: number }> {
      const ended = await db.transaction().execute(async (trx) => {
        const count = await revokeOtherSessionsOfUser(
          trx,
          userId,
          currentId,
          isoNow(clock),
          REVOKED_BY_OWNER,
        );
        if (count > 0)
          await recordSecurityEvent(trx, clock, {
            type: securityEventTypes.sessionRevoked,
            severity: 'info',
            userId,
            meta,
            details: { sessions: count },
          });
        return count;
      });
      return {
        message: ended === 0 ? 'No other session was signed in' : 'Signed out everywhere else',
        ended,
      };
    },
  };
}

export type AccountSessions = ReturnType<typeof createAccountSessions>;
