import { describeOnEveryDatabase } from '../../support/test-server.js';

/** Identity's suites build the platform and identity only: none of the other contexts is loaded. */
export const describeIdentity: typeof describeOnEveryDatabase = (title, define, options = {}) =>
  describeOnEveryDatabase(title, define, { contexts: ['identity'], ...options });
