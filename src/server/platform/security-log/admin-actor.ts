import type { FastifyRequest } from 'fastify';
import { unauthorized } from '../http-error.js';
import { requestMeta } from '../request-meta.js';
import type { AdminActor } from './service.js';

/**
 * The signed-in administrator of a request behind `requireAdmin`, for the audit of their writes.
 * Read from `request.auth`, which identity's guard sets, as `requestMeta` does: the platform
 * imports nothing of identity, and refuses like identity's `currentUser` when it is unset.
 */
export const actorOf = (request: FastifyRequest): AdminActor => {
  if (!request.auth) throw unauthorized('not_authenticated', 'Not authenticated');
  return { id: request.auth.user.id, meta: requestMeta(request) };
};
