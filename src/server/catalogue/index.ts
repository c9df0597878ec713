/**
 * The catalogue context as the contexts that may use it see it (docs/architecture.md): only what
 * one of them asks of it is exported here, and nothing else of the catalogue is imported from outside.
 */
export { currentPeriodStart, periodEnd } from './features/usage-periods.js';
