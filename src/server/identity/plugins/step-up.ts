import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { STEP_UP_WINDOW_SECONDS } from '../../../shared/constants.js';
import type { Clock } from '../../platform/clock.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import { forbidden, notAuthenticated } from '../../platform/http-error.js';
import { findSessionProofTimes } from '../auth/step-up-repository.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Guard of sensitive changes, run after `requireUser` / `requireAdmin`: 403
     * `step_up_required` unless the caller's session signed in or stepped up (POST /auth/step-up)
     * within {@link STEP_UP_WINDOW_SECONDS}. A request made with an API token passes: its scope
     * already decided what it may reach.
     */
    requireStepUp: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

export const stepUpRequiredError = () =>
  forbidden(
    'step_up_required',
    'Confirm it is you: enter your password or a code from your authenticator app.',
  );

/** Whether the session proved who it is recently enough for a sensitive change. */
export async function sessionIsFresh(db: DbOrTransaction, clock: Clock, sessionId: string): Promise<boolean> {
  const times = await findSessionProofTimes(db, sessionId);
  if (!times) return false;
  const proofs = [times.authenticated_at, times.stepped_up_at]
    .filter((at): at is string => at !== null)
    .map((at) => Date.parse(at));
  if (proofs.length === 0) return false;
  const age = clock.now().getTime() - Math.max(...proofs);
  return age <= STEP_UP_WINDOW_SECONDS * 1000;
}

export const stepUpPlugin = fp<{ db: DbOrTransaction; clock: Clock }>(
  async (app, { db, clock }) => {
    app.decorate('requireStepUp', async (request: FastifyRequest) => {
      const auth = request.auth;
      if (!auth) throw notAuthenticated();
      if (auth.apiToken) return;
      if (!(await sessionIsFresh(db, clock, auth.claims.sid))) throw stepUpRequiredError();
    });
  },
  { name: 'step-up', dependencies: ['authenticate'] },
);
