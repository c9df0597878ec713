import type { FastifyRequest } from 'fastify';
import { currentUser } from '../../identity/index.js';
import { requestMeta } from '../../platform/request-meta.js';
import type { OrganisationActor } from './service.js';

// What every organisation route says of who may call it, and who acts: one wording for the API
// document, whichever area the route belongs to (members, usage, domains, exports).
export const outsiders =
  'An account outside the organization gets 404 `organisation_not_found`; a platform administrator may act as its owner.';
export const managers = `Owners and admins only (403 \`organisation_admin_required\` for members). ${outsiders}`;

/** The signed-in account acting on an organisation, and where the request came from. */
export const organisationActorOf = (request: FastifyRequest): OrganisationActor => ({
  user: currentUser(request).user,
  meta: requestMeta(request),
});
