import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden, notAuthenticated, unauthorized } from '../../platform/http-error.js';
import { assertTokenMayCall } from '../api-tokens/scopes.js';
import type { ApiTokensService } from '../api-tokens/service.js';
import type { TokenUses } from '../api-tokens/token-uses.js';
import { looksLikeApiToken } from '../api-tokens/token-format.js';
import type { AuthenticatedUser, AuthService } from '../auth/service.js';
import { requestMeta } from '../../platform/request-meta.js';

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

/**
 * Route guards: `preHandler: app.requireUser` (401 without a valid token) or `app.requireAdmin` (then 403).
 *
 * The bearer is a session's access token or an API token (`aap_…`). An API token must be live and
 * hold the scope of every OpenAPI tag of the operation (403 `insufficient_scope` otherwise), and
 * each call made with one is noted in the security log once answered: a refusal at once, the
 * others counted per minute ({@link TokenUses}).
 */
export const authenticatePlugin = fp<{
  auth: AuthService;
  apiTokens: ApiTokensService;
  tokenUses: TokenUses;
}>(
  async (app, { auth, apiTokens, tokenUses }) => {
    app.decorateRequest('auth', null);
    /** The name of the API token of the request, for the security log. */
    const tokenNames = new WeakMap<FastifyRequest, string>();

    async function authenticate(request: FastifyRequest): Promise<void> {
      const token = bearerToken(request);
      if (!token) throw notAuthenticated();
      if (!looksLikeApiToken(token)) {
        request.auth = await auth.authenticate(token);
        return;
      }
      const { caller, name } = await apiTokens.authenticate(token);
      // Attributed even when the scope check below refuses the call.
      request.auth = caller;
      tokenNames.set(request, name);
      assertTokenMayCall(
        caller.apiToken?.scopes ?? [],
        request.routeOptions.schema?.tags ?? [],
        request.method,
      );
    }

    app.addHook('onResponse', async (request, reply) => {
      const token = request.auth?.apiToken;
      if (!token) return;
      try {
        await tokenUses.record({
          tokenId: token.id,
          name: tokenNames.get(request) ?? '',
          userId: request.auth?.user.id ?? '',
          method: request.method,
          route: request.routeOptions.url ?? request.url,
          statusCode: reply.statusCode,
          meta: requestMeta(request),
        });
      } catch (error) {
        request.log.error(
          { err: error },
          'the call made with an API token was not written to the security log',
        );
      }
    });

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
      // When the platform requires it, an administrator without a second factor enrols before
      // anything else: the account's own routes (two-factor, profile, sign-in) stay open.
      if (await auth.mustEnrolSecondFactor(request.auth.user)) {
        throw forbidden(
          'two_factor_enrolment_required',
          'Set up two-factor sign-in for your account before using the admin console.',
        );
      }
    });
  },
  { name: 'authenticate' },
);

// Routes read their caller from beside the guard that set it; the reading is the platform's.
export { currentUser } from '../../platform/http/current-user.js';
