// What other contexts may use of identity (docs/architecture.md): a context imports this file,
// never identity's own folders.

export { mailLanguage, wantsMail } from './users/mail-preferences.js';
// Who is calling, for the other contexts' routes behind the guards.
export { currentUser } from './plugins/authenticate.js';
// A link into the portal, as identity's own mails build it.
export { portalLink } from './auth/answers.js';

// The account a license, an invoice or a mail is for, read by licensing, billing and admin.
export { findUserByEmail, findUserById } from './users/repository.js';

// Accounts written by the flows of others: an invitee's sign-up (licensing), the administrators'
// users (admin), the operator's create-admin (the CLI).
export {
  changeAccountByAdministrator,
  createAccountByAdministrator,
  createInvitedAccount,
  deleteAccountByAdministrator,
  lockAccount,
  promoteToAdministrator,
} from './users/account-writes.js';
// What admin's list of users shows of an account, as the user's own profile shows it.
export { accountFields, type AccountColumns } from './users/profile.js';
export type { AuthService } from './auth/service.js';
// The composition counts sign-ins (the metrics) through this hook.
export type { SignInObserver } from './auth/sign-in-observer.js';
export type { PasswordHashCost, PasswordHasher } from './auth/password-hasher.js';
// Licensing tells the password sign-in which addresses must use their organisation's provider.
export type { SsoRequirement, SsoRequirementLookup } from './auth/password-gate.js';
export { assertAcceptableNewPassword, newPasswordProblem } from './auth/password-policy.js';
export { secondFactorsOf } from './auth/two-factor-service.js';
export { generatePassword } from './first-admin.js';

// What maintenance deletes of identity's rows.
export { identityPrunes } from './auth/prunes.js';
export type { LockoutPolicy } from './auth/login-throttle.js';

// An account's data: what the contexts above give of it (the export's parts, what holds a deletion
// back), and the erasure they hear of to end what the account held.
export type { AccountDataParts } from './account-data/parts.js';
export { type ExportFile, jsonFile } from './account-data/archive.js';
export type { AccountErasingEvent, IdentityEvent } from './events.js';
