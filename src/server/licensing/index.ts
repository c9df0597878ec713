// What other contexts may use of licensing (docs/architecture.md): a context imports this file,
// never licensing's own folders.

export type {
  ActivationEvent,
  LicenseEvent,
  LicensingEvent,
  LicensingEvents,
  OrganisationEvent,
} from './events.js';
export { createDownloadPermission, type DownloadPermission } from './licenses/download-permission.js';
export { extendThroughGrace, grantPeriod, type PeriodGrant } from './licenses/period-grants.js';
export { assertManages, type OrganisationAccess, organisationAccess } from './organisations/access.js';
export { issueOrganisationLicense, setSeats } from './organisations/seat-grants.js';
export {
  countAssignedSeats,
  findOrganisationLicense,
  lockOrganisation,
} from './organisations/seats-repository.js';
export { organisationView } from './organisations/views.js';
// The licenses and machines billing and admin read before they act on them.
export {
  activationsOfLicense,
  activePaidLicensesOfPlan,
  countSeatsInUse,
  findActivationOfLicense,
  findLicenseById,
  licensesOfUser,
} from './licenses/repository.js';
export { createPlanInUse } from './licenses/plan-in-use.js';
