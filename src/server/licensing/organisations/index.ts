// What the other areas of licensing (SCIM provisioning) use of organisations: who may manage one,
// and the members' and seats' changes a provisioning client makes, with the seat rules of the rest.

export { assertManages, organisationAccess, type OrganisationAccess } from './access.js';
export { findOrganisation } from './repository.js';
export { createProvisioning, type Provisioning, type ProvisioningActor } from './provisioning.js';
export { organisationActorOf, outsiders } from './route-parts.js';
export type { OrganisationActor } from './service.js';
