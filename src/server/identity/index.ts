// What other contexts may use of identity (docs/architecture.md): a context imports this file,
// never identity's own folders.

export { wantsMail } from './users/mail-preferences.js';

// The account a license, an invoice or a mail is for, read by licensing, billing and admin.
export { findUserByEmail, findUserById } from './users/repository.js';
