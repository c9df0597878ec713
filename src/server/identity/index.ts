// What other contexts may use of identity (docs/architecture.md): a context imports this file,
// never identity's own folders.

export { wantsMail } from './users/mail-preferences.js';
// Who is calling, for the other contexts' routes behind the guards.
export { currentUser } from './plugins/authenticate.js';
// A link into the portal, as identity's own mails build it.
export { portalLink } from './auth/answers.js';

// The account a license, an invoice or a mail is for, read by licensing, billing and admin.
export { findUserByEmail, findUserById } from './users/repository.js';
