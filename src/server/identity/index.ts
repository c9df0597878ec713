/**
 * The identity context as the contexts that may use it see it (docs/architecture.md): only what
 * one of them asks of it is exported here.
 */
export { wantsMail } from './users/mail-preferences.js';
