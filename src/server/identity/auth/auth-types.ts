import type { AccessTokenClaims } from '../../../shared/api/auth.js';
import type { UserRole } from '../../../shared/constants.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { UserRow } from '../../platform/db/tables.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import type { AccessTokens } from './access-tokens.js';
import type { LockoutPolicy } from './login-throttle.js';
import type { PasswordGate } from './password-gate.js';
import type { PasswordHasher } from './password-hasher.js';
import type { SignInObserver } from './sign-in-observer.js';

// The types the auth service's parts share; apart from service.ts, which puts the parts together,
// so that the parts need not import it.

export interface AuthServiceDeps {
  db: Db;
  clock: Clock;
  accessTokens: AccessTokens;
  passwords: PasswordHasher;
  mailer: Mailer;
  publicUrl: string;
  lockout: LockoutPolicy;
  /** Told of each sign-in's end (the metrics); none when unset. */
  signIns?: SignInObserver;
  /** Who must sign in through their organisation's provider instead of a password. */
  passwordGate?: PasswordGate;
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
  /** The language the account starts with (its mail's, and the portal's once signed in). */
  language?: string;
}
