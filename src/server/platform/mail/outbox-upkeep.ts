// The outbox's upkeep that the server's root files run: maintenance's prune of old mail and the
// operator's `retry-mail`. They are the outbox repository's statements; the root files import
// them here, as the contexts' own through their index.ts, and no repository directly.

export { pruneMailOutbox, requeueFailedMails } from './outbox-repository.js';
