// What other contexts may use of the catalogue (docs/architecture.md): a context imports this file,
// never the catalogue's own folders.

export { currentPeriodStart, periodEnd } from './features/usage-periods.js';
