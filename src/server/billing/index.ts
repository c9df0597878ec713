// What other parts may use of billing (docs/architecture.md): the composition's root files read
// an account's billing data for its export here, never billing's own folders.

export { billingDataOfUser } from './account-data/account-data.js';
