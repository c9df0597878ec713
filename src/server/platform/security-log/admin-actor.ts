import type { FastifyRequest } from 'fastify';
import { currentUser } from '../http/current-user.js';
import { requestMeta } from '../request-meta.js';
import type { AdminActor } from './service.js';

/** The signed-in administrator of a request behind `requireAdmin`, for the audit of their writes. */
export const actorOf = (request: FastifyRequest): AdminActor => ({
  id: currentUser(request).user.id,
  meta: requestMeta(request),
});
