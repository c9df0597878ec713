// What the server's root files ask of integrations (docs/architecture.md); the contexts never
// import it: integrations listen to their events instead.

export { webhookPrunes } from './webhooks/prunes.js';
