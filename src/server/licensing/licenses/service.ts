import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
// eslint-disable-next-line boundaries/dependencies -- debt of the move into contexts (docs/architecture.md)
import type { DownloadLinks } from '../../distribution/signed-links.js';
import type { LicensingEvents } from '../events.js';
import type { LeaseSigner } from '../leases/lease-signer.js';
import { createActivationService } from './activation-service.js';
import { createLicenseDownloadService } from './download-service.js';
import { createLicensePlanService } from './plan-service.js';
import { createLicenseReadService } from './read-service.js';
import { createSeatActivationService } from './seat-activation-service.js';
import { createUsageService } from './usage-service.js';

export interface LicensesServiceDeps {
  db: Db;
  clock: Clock;
  /** Announces licenses issued and machines activated or deactivated. */
  events: LicensingEvents;
  leases: LeaseSigner;
  downloadLinks: DownloadLinks;
  /** Absolute URL prefix of the API (`${PUBLIC_URL}/api/v1`) for download links. */
  apiUrl: string;
}

/**
 * Licenses as their owners use them (`/licenses`), one concern per part: reading them, machines
 * and seats, features and usage, plans, and installer downloads. Machines' own checks are the
 * license-check service (check-service.ts), which the licensing routes use.
 */
export function createLicensesService(deps: LicensesServiceDeps) {
  return {
    ...createLicenseReadService(deps),
    ...createActivationService(deps),
    ...createSeatActivationService(deps),
    ...createUsageService(deps),
    ...createLicensePlanService(deps),
    ...createLicenseDownloadService(deps),
  };
}

export type LicensesService = ReturnType<typeof createLicensesService>;
