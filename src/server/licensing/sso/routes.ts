import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { noBodySchema } from '../../../shared/api/common.js';
import {
  organisationSsoAnswerSchema,
  organisationSsoBodySchema,
  ssoCallbackQuerySchema,
  ssoCompleteBodySchema,
  ssoDiscoverBodySchema,
  ssoDiscoverySchema,
  ssoRedirectSchema,
  ssoReturnSchema,
  ssoSignInSchema,
  ssoStartBodySchema,
} from '../../../shared/api/organisation-sso.js';
import { organisationParamsSchema } from '../../../shared/api/organisations.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { apiKeySecurity, bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import { requestMeta } from '../../platform/request-meta.js';
import { currentUser } from '../../identity/index.js';
import { managers, organisationActorOf } from '../organisations/route-parts.js';
import { ssoBrowserCookie } from './browser-cookie.js';
import type { SsoSettings } from './settings.js';
import type { SsoSignInService } from './sign-in.js';

const paths = apiPaths.organisations;
const authPaths = apiPaths.auth;

/** An organisation's OpenID Connect settings, and the sign-in through it (licensing holds both). */
export const ssoRoutes: FastifyPluginAsyncZod<{
  settings: SsoSettings;
  signIn: SsoSignInService;
  publicUrl: string;
  rateLimitPerMinute: number;
}> = async (app, { settings, signIn, publicUrl, rateLimitPerMinute }) => {
  const cookie = ssoBrowserCookie(publicUrl);
  const limited = { rateLimit: { max: rateLimitPerMinute, timeWindow: '1 minute' } };

  app.get(
    paths.sso,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'getOrganisationSso',
        tags: ['organisations'],
        summary: 'The organization’s single sign-on provider (its client secret is never shown)',
        description: `\`sso\` is null until it is set up; \`redirect_uri\` is the callback to register. ${managers}`,
        security: bearerSecurity,
        params: organisationParamsSchema,
        response: { 200: organisationSsoAnswerSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => settings.get(request.params.organisationId, currentUser(request).user),
  );

  app.put(
    paths.sso,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'setOrganisationSso',
        tags: ['organisations'],
        summary: 'Set up or change the organization’s OpenID Connect provider',
        description:
          'The provider’s discovery document is read before anything is saved (502 `sso_provider_unreachable`). ' +
          '409 `domain_not_verified` until the organization holds a verified domain; 400 `client_secret_required` ' +
          `the first time without a secret, \`issuer_not_https\` for an http:// issuer. ${managers}`,
        security: bearerSecurity,
        params: organisationParamsSchema,
        body: organisationSsoBodySchema,
        response: { 200: organisationSsoAnswerSchema, ...errorResponses(400, 401, 403, 404, 409, 415, 502) },
      },
    },
    async (request) =>
      settings.put(request.params.organisationId, organisationActorOf(request), request.body),
  );

  app.delete(
    paths.sso,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'removeOrganisationSso',
        tags: ['organisations'],
        summary: 'Stop signing in through the organization’s provider; passwords work again',
        description: `404 \`sso_not_configured\` when there is none. ${managers}`,
        security: bearerSecurity,
        params: organisationParamsSchema,
        response: { 204: z.null().describe('Removed'), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await settings.remove(request.params.organisationId, organisationActorOf(request));
      return reply.code(204).send(null);
    },
  );

  app.post(
    paths.ssoTest,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'testOrganisationSso',
        tags: ['organisations'],
        summary: 'Start a test sign-in through the provider: signs nobody in, reports what came back',
        description:
          'Send the browser to `authorization_url`; the provider sends it back to the organization’s page, ' +
          `and \`last_test\` of the settings says what was found. ${managers}`,
        security: bearerSecurity,
        params: organisationParamsSchema,
        body: noBodySchema,
        response: { 200: ssoRedirectSchema, ...errorResponses(400, 401, 403, 404, 502) },
      },
    },
    async (request, reply) =>
      signIn.startTest(
        request.params.organisationId,
        organisationActorOf(request),
        cookie.ensure(request, reply),
      ),
  );

  app.post(
    authPaths.ssoDiscover,
    {
      config: limited,
      schema: {
        operationId: 'discoverSso',
        tags: ['auth'],
        summary: 'Whether an address signs in through its organization’s provider (the e-mail-first sign-in)',
        description: 'Answers by the address’s domain only: it says nothing of whether an account exists.',
        security: apiKeySecurity,
        body: ssoDiscoverBodySchema,
        response: { 200: ssoDiscoverySchema, ...errorResponses(400, 415, 429) },
      },
    },
    async (request) => signIn.discover(request.body.email),
  );

  app.post(
    authPaths.ssoStart,
    {
      config: limited,
      schema: {
        operationId: 'startSsoSignIn',
        tags: ['auth'],
        summary: 'Begin a single sign-on: where to send the browser (PKCE, state and nonce kept here)',
        description:
          'Give the address (its verified domain names the organization) or the organization. ' +
          'The answer sets a cookie the callback must come back with. 404 `sso_not_configured`.',
        security: apiKeySecurity,
        body: ssoStartBodySchema,
        response: { 200: ssoRedirectSchema, ...errorResponses(400, 404, 415, 429, 502) },
      },
    },
    async (request, reply) => signIn.start(request.body, cookie.ensure(request, reply)),
  );

  app.get(
    authPaths.ssoCallback,
    {
      config: limited,
      schema: {
        operationId: 'ssoCallback',
        tags: ['auth'],
        // The browser comes from the provider with no API key or token: the state is the credential.
        security: [],
        summary:
          'Where the identity provider sends the browser back (no API key: the state is the credential)',
        description:
          'Always a redirect to the portal: to /login with a one-time `sso_code` in the fragment, or with ' +
          '`sso_error` (wrong, used or expired state, another browser, wrong nonce, an address outside ' +
          'the verified domains…); a test sign-in goes back to the organization’s page.',
        querystring: ssoCallbackQuerySchema,
        response: {
          302: ssoReturnSchema.describe('To the portal (the body says where, as JSON)'),
          ...errorResponses(400, 429),
        },
      },
    },
    async (request, reply) => {
      const query = new URLSearchParams();
      for (const [name, value] of Object.entries(request.query))
        if (typeof value === 'string') query.set(name, value);
      const location = await signIn.callback(query, cookie.read(request), requestMeta(request));
      return reply
        .code(302)
        .header('cache-control', 'no-store')
        .header('location', location)
        .send({ location });
    },
  );

  app.post(
    authPaths.ssoComplete,
    {
      config: limited,
      schema: {
        operationId: 'completeSsoSignIn',
        tags: ['auth'],
        summary: 'Trade the callback’s one-time code for a session, as a password sign-in answers',
        description:
          'The code works once, for two minutes (401 `sso_code_invalid`). `sso` says whether the person ' +
          'joined and holds a seat.',
        security: apiKeySecurity,
        body: ssoCompleteBodySchema,
        response: { 200: ssoSignInSchema, ...errorResponses(400, 401, 403, 415, 429) },
      },
    },
    async (request) => signIn.complete(request.body.code, requestMeta(request)),
  );
};
