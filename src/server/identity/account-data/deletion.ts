import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { AccountDeletion } from '../../../shared/api/account-data.js';
import { type Clock, isoNow } from '../../platform/clock.js';
import type { Db, DbOrTransaction } from '../../platform/db/database.js';
import type { EventPublisher } from '../../platform/events.js';
import { conflict, HttpError, notAuthenticated, notFound } from '../../platform/http-error.js';
import type { RequestMeta } from '../../platform/request-meta.js';

import { securityEventTypes } from '../../platform/security-log/security-events.js';
import { pseudonymiseSecurityEvents, recordSecurityEvent } from '../../platform/security-log/service.js';
import type { PasswordHasher } from '../auth/password-hasher.js';
import type { IdentityEvent } from '../events.js';
import { findUserById, lockUserRow } from '../users/repository.js';
import type { AccountDataParts } from './parts.js';
import { accountsDueForErasure, eraseAccountRows, setDeletionDue } from './repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Erasures per scheduler run; the rest wait for the next. */
const ERASURES_PER_RUN = 50;

const userNotFound = () => notFound('user_not_found', 'User not found');

/** How an erasure came about, as the security log records it. */
type ErasureCause =
  { by: 'grace_period' } | { by: 'administrator'; actorId: string; reason: string; meta: RequestMeta | null };

/**
 * A customer's deletion of their own account: asked for (after step-up), it waits out the grace
 * period, during which signing in shows it and offers to cancel it; then the scheduler erases the
 * account. The contexts above end what it held on `account.erasing`; invoices keep the buyer
 * details they were issued with; the security log keeps the account's id only.
 */
export function createAccountDeletion({
  db,
  clock,
  graceDays,
  parts,
  events,
  passwords,
  log,
}: {
  db: Db;
  clock: Clock;
  graceDays: number;
  parts: AccountDataParts;
  events: EventPublisher<IdentityEvent> | undefined;
  passwords: PasswordHasher;
  log: FastifyBaseLogger;
}) {
  const view = (dueAt: string | null): AccountDeletion => ({ deletion_due_at: dueAt, grace_days: graceDays });

  async function assertNotBlocked(trx: DbOrTransaction, userId: string): Promise<void> {
    for (const blocked of parts.deletionBlockers) {
      const refusal = await blocked(trx, userId);
      if (refusal) throw refusal;
    }
  }

  /** Erases one account under its row's lock; false when it is no longer to be erased (cancelled, erased). */
  async function erase(userId: string, cause: ErasureCause): Promise<boolean> {
    // A hash no password matches: the row keeps a well-formed one, and nothing signs in with it.
    const unusable = await passwords.hash(randomBytes(32).toString('base64url'));
    return db.transaction().execute(async (trx) => {
      await lockUserRow(trx, userId);
      const user = await findUserById(trx, userId);
      if (!user) throw userNotFound();
      if (user.erased_at !== null) {
        if (cause.by === 'administrator') throw conflict('account_erased', 'This account is already erased');
        return false;
      }
      const now = isoNow(clock);
      // A cancellation that took the lock first wins: nothing is due any more.
      if (cause.by === 'grace_period' && (user.deletion_due_at === null || user.deletion_due_at > now))
        return false;
      await assertNotBlocked(trx, userId);
      await events?.publish(trx, { type: 'account.erasing', userId, at: now });
      await pseudonymiseSecurityEvents(trx, userId);
      await eraseAccountRows(trx, userId, now, unusable);
      await recordSecurityEvent(trx, clock, {
        type: securityEventTypes.accountErased,
        severity: 'warning',
        userId,
        actorId: cause.by === 'administrator' ? cause.actorId : null,
        meta: cause.by === 'administrator' ? cause.meta : null,
        details: cause.by === 'administrator' ? { by: cause.by, reason: cause.reason } : { by: cause.by },
      });
      return true;
    });
  }

  return {
    status(user: { deletion_due_at: string | null }): AccountDeletion {
      return view(user.deletion_due_at);
    },

    /** Asks for the account's deletion at the grace period's end; asking again changes nothing. */
    async request(userId: string, meta: RequestMeta | null): Promise<AccountDeletion> {
      return db.transaction().execute(async (trx) => {
        await lockUserRow(trx, userId);
        const user = await findUserById(trx, userId);
        // Erased after this call signed in: that ended its session, so it is refused as any call of it.
        if (!user || user.erased_at !== null) throw notAuthenticated();
        if (user.role === 'admin')
          throw conflict(
            'administrator_account',
            'An administrator’s account cannot be deleted from Profile: another administrator removes it',
          );
        if (user.deletion_due_at !== null) return view(user.deletion_due_at);
        await assertNotBlocked(trx, userId);
        const dueAt = new Date(clock.now().getTime() + graceDays * DAY_MS).toISOString();
        await setDeletionDue(trx, userId, dueAt, isoNow(clock));
        await recordSecurityEvent(trx, clock, {
          type: securityEventTypes.accountDeletionRequested,
          severity: 'warning',
          userId,
          actorId: userId,
          meta,
          details: { deletion_due_at: dueAt },
        });
        return view(dueAt);
      });
    },

    /** Takes the deletion back while the grace period lasts. */
    async cancel(userId: string, meta: RequestMeta | null): Promise<AccountDeletion> {
      return db.transaction().execute(async (trx) => {
        await lockUserRow(trx, userId);
        const user = await findUserById(trx, userId);
        // Erased after this call signed in: that ended its session, so it is refused as any call of it.
        if (!user || user.erased_at !== null) throw notAuthenticated();
        if (user.deletion_due_at === null)
          throw conflict('no_deletion_pending', 'This account is not waiting to be deleted');
        await setDeletionDue(trx, userId, null, isoNow(clock));
        await recordSecurityEvent(trx, clock, {
          type: securityEventTypes.accountDeletionCancelled,
          severity: 'info',
          userId,
          actorId: userId,
          meta,
        });
        return view(null);
      });
    },

    /** An administrator's erasure, now, with the reason the log keeps. */
    async eraseByAdministrator(
      actor: { id: string; meta: RequestMeta | null },
      userId: string,
      reason: string,
    ): Promise<void> {
      if (userId === actor.id) throw conflict('own_account', 'You cannot erase your own account');
      const user = await findUserById(db, userId);
      if (!user) throw userNotFound();
      if (user.role === 'admin' && user.erased_at === null)
        throw conflict('administrator_account', 'Make the account a user’s before erasing it');
      await erase(userId, { by: 'administrator', actorId: actor.id, reason, meta: actor.meta });
    },

    /** The scheduler's job: erases the accounts whose grace period is over. */
    async eraseDue(): Promise<number> {
      let erased = 0;
      for (const { id } of await accountsDueForErasure(db, isoNow(clock), ERASURES_PER_RUN)) {
        try {
          if (await erase(id, { by: 'grace_period' })) erased += 1;
        } catch (error) {
          // An owner who took on an organisation meanwhile stays until it is handed over.
          if (error instanceof HttpError)
            log.warn({ userId: id, code: error.code }, 'account erasure held back');
          else throw error;
        }
      }
      return erased;
    },
  };
}

export type AccountDeletionService = ReturnType<typeof createAccountDeletion>;
