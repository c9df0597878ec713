import type { AccessTokenClaims } from '../../../shared/api/auth.js';
import type { UserRole } from '../../../shared/constants.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { UserRow } from '../../platform/db/tables.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import type { MailPreparer } from '../../platform/mail/outbox-worker.js';
import { mailKinds } from '../../platform/mail/templates.js';
import type { AccessTokens } from './access-tokens.js';
import { createAccounts } from './accounts.js';
import type { LockoutPolicy } from './login-throttle.js';
import { createPasswordFlows } from './password-flows.js';
import type { PasswordHasher } from './password-hasher.js';
import { createSessions } from './sessions.js';

export interface AuthServiceDeps {
  db: Db;
  clock: Clock;
  accessTokens: AccessTokens;
  passwords: PasswordHasher;
  mailer: Mailer;
  publicUrl: string;
  lockout: LockoutPolicy;
}

/** The API token a request was made with, when it was made with one rather than a session. */
export interface ApiTokenIdentity {
  id: string;
  kind: 'personal' | 'platform';
  scopes: readonly string[];
}

export interface AuthenticatedUser {
  user: UserRow;
  claims: AccessTokenClaims;
  /** Set when the bearer was an API token: its scopes decide what the request may reach. */
  apiToken?: ApiTokenIdentity;
}

export interface NewAccount {
  email: string;
  password: string;
  role: UserRole;
  fullName?: string | null;
  verified: boolean;
}

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
