import { ConfigError } from '../platform/config.js';
import { randomToken } from '../platform/crypto.js';
import type { Db } from '../platform/db/database.js';
import type { UserRow } from '../platform/db/tables.js';
import { newPasswordProblem } from './auth/password-policy.js';
import type { AuthService } from './auth/service.js';
import { countAdmins, findUserByEmail } from './users/repository.js';
import { systemClock } from '../platform/clock.js';
import { securityEventTypes } from '../platform/security-log/security-events.js';
import { recordSecurityEvent } from '../platform/security-log/service.js';

export interface FirstAdminResult {
  email: string;
  /** Set only when the password was generated, so it can be shown once. */
  generatedPassword?: string;
}

/** A readable generated password: 24 URL-safe characters (144 bits). */
export const generatePassword = (): string => randomToken(18);

/**
 * On a database with no administrator, creates one from ADMIN_EMAIL / ADMIN_PASSWORD (or a
 * generated password). Does nothing once any admin exists, so restarts never change accounts.
 */
export async function ensureFirstAdmin(
  db: Db,
  auth: AuthService,
  admin: { email: string; password: string | undefined },
): Promise<FirstAdminResult | undefined> {
  if ((await countAdmins(db)) > 0) return undefined;
  // ADMIN_PASSWORD meets the rule of every new password; a common one stops the start like any bad setting.
  const passwordProblem =
    admin.password === undefined ? undefined : newPasswordProblem(admin.password, admin.email);
  if (passwordProblem) throw new ConfigError([`ADMIN_PASSWORD: ${passwordProblem}`]);
  const existing = await findUserByEmail(db, admin.email);
  // Another instance on the same database, starting at the same moment, may have just created it.
  if (existing?.role === 'admin') return undefined;
  if (existing) {
    throw new ConfigError([
      `ADMIN_EMAIL ${admin.email} belongs to an existing non-admin account; choose another address or run ` +
        '`npm run cli -- create-admin --email <address>`',
    ]);
  }
  const password = admin.password ?? generatePassword();
  let user: UserRow;
  try {
    user = await auth.createAccount({
      email: admin.email,
      password,
      role: 'admin',
      verified: true,
      fullName: 'Administrator',
    });
  } catch (error) {
    // Another instance on the same database, starting at the same moment, created it first.
    if ((await countAdmins(db)) > 0) return undefined;
    throw error;
  }
  await recordSecurityEvent(db, systemClock, {
    type: securityEventTypes.adminCreated,
    severity: 'warning',
    userId: user.id,
    details: { reason: 'first start' },
  });
  return { email: admin.email, ...(admin.password ? {} : { generatedPassword: password }) };
}
