import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { LicensingEvents } from '../events.js';
import type { LeaseSigner } from '../leases/lease-signer.js';
import { createActivationService } from './activation-service.js';
import { createLicensePlanService } from './plan-service.js';
import { createLicenseReadService } from './read-service.js';
import { createSeatActivationService } from './seat-activation-service.js';
import type { CoveredVersionsLookup } from './update-windows.js';
import type { UsageDeps } from '../usage/report-usage.js';
import { createUsageService } from '../usage/service.js';

export interface LicensesServiceDeps {
  db: Db;
  clock: Clock;
  /** Announces licenses issued and machines activated or deactivated. */
  events: LicensingEvents;
  leases: LeaseSigner;
  /** The versions an ended update window covers, shown on the owner's license views. */
  coveredVersions?: CoveredVersionsLookup;
  /** A plan's features for counting usage: the catalogue's short-lived cache. */
  planFeatures?: UsageDeps['planFeatures'];
  /** The currency a plan is priced in, for usage reads: the same cache. */
  planCurrency?: UsageDeps['planCurrency'];
}

/**
 * Licenses as their owners use them (`/licenses`), one concern per part: reading them, machines
 * and seats, features and usage, plans. Machines' own checks are the license-check service
 * (check-service.ts), which the licensing routes use; installer downloads are distribution's.
 */
export function createLicensesService(deps: LicensesServiceDeps) {
  return {
    ...createLicenseReadService(deps),
    ...createActivationService(deps),
    ...createSeatActivationService(deps),
    ...createUsageService(deps),
    ...createLicensePlanService(deps),
  };
}

export type LicensesService = ReturnType<typeof createLicensesService>;
