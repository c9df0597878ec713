// The organisations feature as other features and app/ see it: its endpoints (the Licences page
// and the admin screens refresh what an organisation's change makes stale) and how seats are told.
export { organisationMessages, organisationsApi } from './organisations-endpoints';
export { ROLE_LABELS, seatsUsedText } from './organisation-format';
