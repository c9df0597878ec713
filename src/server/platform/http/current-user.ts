import type { FastifyRequest } from 'fastify';
import { notAuthenticated } from '../http-error.js';

/**
 * The authenticated caller of a route behind `requireUser` or `requireAdmin`, refused with 401
 * when unset. Read from `request.auth`, which identity's guard sets: the platform imports nothing
 * of identity, so a context that may use only the platform (the catalogue) reads its caller here.
 */
export function currentUser(request: FastifyRequest): NonNullable<FastifyRequest['auth']> {
  if (!request.auth) throw notAuthenticated();
  return request.auth;
}
