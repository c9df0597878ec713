import type { MailPreparer } from '../../platform/mail/outbox-worker.js';
import { mailKinds } from '../../platform/mail/templates.js';
import type { AuthServiceDeps } from './auth-types.js';
import { createAccounts } from './accounts.js';
import { createPasswordFlows } from './password-flows.js';
import { createSessions } from './sessions.js';

export type { ApiTokenIdentity, AuthenticatedUser, AuthServiceDeps, NewAccount } from './auth-types.js';

/** Sign-up, sign-in, sessions and passwords, one concern per module. */
export function createAuthService(deps: AuthServiceDeps) {
  const accounts = createAccounts(deps);
  const passwordFlows = createPasswordFlows(deps);
  /** What decides the content of the mails these calls queue as requests. */
  const mailPreparers: Record<string, MailPreparer> = {
    [mailKinds.verification]: accounts.prepareVerification,
    [mailKinds.accountExists]: accounts.prepareAccountExists,
    [mailKinds.passwordReset]: passwordFlows.prepareReset,
  };
  return { ...accounts, ...createSessions(deps), ...passwordFlows, mailPreparers };
}

export type AuthService = ReturnType<typeof createAuthService>;
