import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden, unauthorized } from '../http-error.js';
import type { AuthenticatedUser, AuthService } from '../modules/auth/service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the guards when the request carries a valid bearer token. */
    auth: AuthenticatedUser | null;
  }
  interface FastifyInstance {
    requireUser: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    requireAdmin: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** Sets `request.auth` when a valid bearer token is present, else leaves the caller anonymous. */
    optionalUser: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

/** The token of an `Authorization: Bearer …` header; a malformed header is a 401, an absent one undefined. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token, extra] = header.split(' ');
  if (scheme?.toLowerCase() !== 'bearer' || !token || extra !== undefined) {
    throw unauthorized('invalid_token', 'Invalid or expired token');
  }
  return token;
}

/** Route guards: `preHandler: app.requireUser` (401 without a valid token) or `app.requireAdmin` (then 403). */
export const authenticatePlugin = fp<{ auth: AuthService }>(
  async (app, { auth }) => {
    app.decorateRequest('auth', null);

    async function authenticate(request: FastifyRequest): Promise<void> {
      const token = bearerToken(request);
      if (!token) throw unauthorized('not_authenticated', 'Not authenticated');
      request.auth = await auth.authenticate(token);
    }

    app.decorate('requireUser', authenticate);
    // An expired or broken token makes the caller anonymous rather than refused: signing out
    // must work however old the access token is.
    app.decorate('optionalUser', async (request: FastifyRequest) => {
      try {
        await authenticate(request);
      } catch {
        request.auth = null;
      }
    });
    app.decorate('requireAdmin', async (request: FastifyRequest) => {
      await authenticate(request);
      if (request.auth?.user.role !== 'admin') {
        throw forbidden('admin_required', 'You do not have permission to access this resource');
      }
    });
  },
  { name: 'authenticate' },
);

/** The authenticated user of a route behind `requireUser`. */
export function currentUser(request: FastifyRequest): AuthenticatedUser {
  if (!request.auth) throw unauthorized('not_authenticated', 'Not authenticated');
  return request.auth;
}
