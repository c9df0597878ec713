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
    optionalUser: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

function bearerToken(request: FastifyRequest): string | undefined {
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

    async function authenticate(request: FastifyRequest, required: boolean): Promise<void> {
      const token = bearerToken(request);
      if (!token) {
        if (required) throw unauthorized('not_authenticated', 'Not authenticated');
        return;
      }
      request.auth = await auth.authenticate(token);
    }

    app.decorate('requireUser', (request: FastifyRequest) => authenticate(request, true));
    app.decorate('optionalUser', (request: FastifyRequest) => authenticate(request, false));
    app.decorate('requireAdmin', async (request: FastifyRequest) => {
      await authenticate(request, true);
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
