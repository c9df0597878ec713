// What other contexts may use of licensing (docs/architecture.md): a context imports this file,
// never licensing's own folders.

export type {
  ActivationEvent,
  LicenseEvent,
  LicensingEvent,
  LicensingEvents,
  OrganisationEvent,
  OwnershipTransferredEvent,
} from './events.js';
// The composition counts the license checks (the metrics) through this hook.
export type { LicenseCheckObserver, LicenseCheckResult } from './leases/check-observer.js';
export { createDownloadPermission, type DownloadPermission } from './licenses/download-permission.js';
// The update feed checks a license and its machine as the license check does, with the same refusals:
// the same rule accepts a machine (an activation, by seat key, components or hardware id, or a
// floating seat held now).
export { invalidKey } from './licenses/refusals.js';
export {
  type Admission,
  type AdmittedMachineRef,
  createUpdateAdmission,
  type UpdateAdmission,
} from './licenses/update-admission.js';
export { issueLicense } from './licenses/issue.js';
// What billing and admin do to a license, each named for why and run in the caller's transaction.
export {
  extendThroughGrace,
  type GrantedPeriod,
  grantPeriod,
  type PeriodGrant,
  type PaidPeriod,
} from './licenses/period-grants.js';
export {
  endLicensePause,
  endWithSubscription,
  followPlanChange,
  pauseWithSubscription,
  holdUntilRenewalReported,
  moveExpiryBack,
  suspendForNonPayment,
} from './licenses/subscription-changes.js';
export { endForRefund, revokeForRefund } from './licenses/refund-changes.js';
// Billing refuses an update renewal up front when the buyer has no perpetual license to renew.
export { assertRenewable, windowAnswer } from './licenses/update-windows.js';
export {
  type AdministratorChanges,
  changeByAdministrator,
  deactivateByAdministrator,
  renameMachine,
  revokeByAdministrator,
} from './licenses/administrator-changes.js';
export { resetDeactivations } from './licenses/deactivation-cap.js';
export { componentChangesOf } from './licenses/fingerprints-repository.js';
export { storedComponents } from './licenses/fingerprints.js';
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
  lockLicense,
} from './licenses/repository.js';
export { effectiveStatus, toActivation, toLicense, toLicenses } from './licenses/views.js';
export { createPlanInUse } from './licenses/plan-in-use.js';
// An administrator's extension or end of a free trial.
export { changeTrialByAdministrator, type TrialChange } from './trials/administrator-changes.js';
// Card trials: billing's subscription checkout with a trial, under the free trials' rules.
export {
  type CardTrialBuyer,
  cardTrialRefused,
  cardTrialRefusal,
  startCardTrial,
} from './trials/card-trials.js';
// The trials started and converted per month, for the administrators' overview.
export { type TrialMonthRow, trialsByStartMonth } from './trials/counts-repository.js';
// Overage billed: what ended periods owe past the allowance, recorded on the charge that bills it.
export type { OverageChargedEvent } from './events.js';
export {
  type BilledOverage,
  billPendingOverage,
  noteOverageInvoice,
  overageBilledOn,
  type OverageOwed,
  overageOwed,
  recordOverage,
} from './usage/overage.js';
export {
  licensesOverAllowance,
  licensesWithUnplaced as licensesWithUnplacedOverage,
  pendingOfSubscription as pendingOverageOfSubscription,
  setAddon as setOverageAddon,
  unplacedOfSubscription as unplacedOverageOfSubscription,
} from './usage/overage-repository.js';
// Credit packs: what a customer may buy (billing's checkout), the pack a settled payment writes,
// ending one for its refund, and an administrator's grant of units.
export { grantUsageUnits, packDescription, type PackOffer, packOffer } from './usage/pack-offers.js';
export {
  addUsagePack,
  DEFAULT_PACK_VALID_MONTHS,
  type EndedPack,
  endPackForRefund,
  reopenPackAfterFailedRefund,
} from './usage/packs.js';

// An account's data: what licensing holds of it (the export), and the organisations it must hand
// over before it can be deleted.
export { licensingDataOfUser, ownedOrganisations } from './account-data/account-data.js';
// Single sign-on's sign-ins past their life, which maintenance deletes.
export { pruneSamlAssertions, pruneSsoSignIns } from './sso/repository.js';
