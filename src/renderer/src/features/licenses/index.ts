// The licenses feature as app/ and other features see it: the license state (injected by app/),
// the reads others refresh, this machine's check, and the small pieces other screens show.
export {
  licenseSlice,
  selectLicenseStatus,
  setCurrentLicense,
  type LicenseRecord,
  type LicenseState,
} from './license-slice';
export {
  licenseApi,
  refreshLicenses,
  useListMyLicensesQuery,
  useStartTrialMutation,
} from './licenses-endpoints';
export { useThisMachine } from './use-this-machine';
export {
  formatDate,
  formatDateTime,
  formatNumber,
  formatRelative,
  seatsText,
  STATUS_LABELS,
  summarizeCheck,
} from './license-format';
export { LicenseStatusBadge } from './components/license-status-badge';
export { RenameMachineModal } from './components/rename-machine-modal';
export { LicenseTroubleshooter } from './components/license-troubleshooter';
export { ActivateOnThisMachine } from './components/activate-on-this-machine';
export { FloatingSeatsSection } from './components/floating-seats-section';
export { expiryText } from './license-format';
