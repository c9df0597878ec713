// What other contexts may use of identity (docs/architecture.md): a context imports this file,
// never identity's own folders.

export { wantsMail } from './users/mail-preferences.js';
