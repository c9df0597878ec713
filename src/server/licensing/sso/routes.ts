import formBody from '@fastify/formbody';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { noBodySchema } from '../../../shared/api/common.js';
import {
  organisationSamlBodySchema,
  organisationSsoAnswerSchema,
  organisationSsoBodySchema,
  samlAcsBodySchema,
  ssoCallbackQuerySchema,
  ssoCompleteBodySchema,
  ssoDiscoverBodySchema,
  ssoDiscoverySchema,
  ssoRedirectSchema,
  ssoReturnSchema,
  ssoCompleteAnswerSchema,
  ssoStartBodySchema,
} from '../../../shared/api/organisation-sso.js';
import { organisationParamsSchema } from '../../../shared/api/organisations.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { apiKeySecurity, bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import { requestMeta } from '../../platform/request-meta.js';
import { currentUser } from '../../identity/index.js';
import { managers, organisationActorOf } from '../organisations/route-parts.js';
import { ssoBrowserCookie } from './browser-cookie.js';
import type { SamlSignIn } from './saml-sign-in.js';
import type { SsoSettings } from './settings.js';
import type { SsoSignInService } from './sign-in.js';

const paths = apiPaths.organisations;
const authPaths = apiPaths.auth;

/** The largest form a SAML identity provider posts to the ACS (its base64 response and RelayState). */
const ACS_BODY_LIMIT = 512 * 1024;

/** An organisation's single sign-on settings, and the sign-in through them (licensing holds both). */
export const ssoRoutes: FastifyPluginAsyncZod<{
  settings: SsoSettings;
  signIn: SsoSignInService;
  saml: SamlSignIn;
  publicUrl: string;
  rateLimitPerMinute: number;
}> = async (app, { settings, signIn, saml, publicUrl, rateLimitPerMinute }) => {
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
        description:
          '`sso` is null until it is set up, else its `protocol` says which (`oidc` or `saml`); ' +
          '`redirect_uri` is the OpenID Connect callback to register, `saml` what a SAML identity ' +
          `provider needs of us (entity id, ACS, metadata URL). ${managers}`,
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

  app.put(
    paths.ssoSaml,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'setOrganisationSaml',
        tags: ['organisations'],
        summary: 'Set up or change the organization’s SAML 2.0 identity provider (in place of any other)',
        description:
          'From its metadata, pasted (`metadata_xml`) or read once now from `metadata_url`: its entity id, ' +
          'HTTP-Redirect sign-in URL and signing certificates are kept and shown back. 400 ' +
          '`saml_metadata_invalid` says what is wrong with the metadata, `saml_metadata_required` the first ' +
          'time without any, `metadata_url_not_https` for an http:// URL; 502 `saml_metadata_unreachable`; ' +
          `409 \`domain_not_verified\` until the organization holds a verified domain. ${managers}`,
        security: bearerSecurity,
        params: organisationParamsSchema,
        body: organisationSamlBodySchema,
        response: { 200: organisationSsoAnswerSchema, ...errorResponses(400, 401, 403, 404, 409, 415, 502) },
      },
    },
    async (request) =>
      settings.putSaml(request.params.organisationId, organisationActorOf(request), request.body),
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
        description:
          'Answers by the address’s domain only: it says nothing of whether an account exists, nor which ' +
          'organization or provider it is; an unknown domain is answered as one without single sign-on. ' +
          'With `sso`, start at /auth/sso/start with the same address. Rate-limited per client address.',
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
          'The answer sets a cookie the callback must come back with. The desktop app, which signs in ' +
          'through the system browser, gives `desktop` instead (the S256 challenge of a verifier it keeps ' +
          'and its loopback port): no cookie is set, the sign-in ends at `http://127.0.0.1:<port>/sso` ' +
          'with `sso_code` (or `sso_error`) in the query, and /auth/sso/complete wants the verifier. ' +
          '404 `sso_not_configured`.',
        security: apiKeySecurity,
        body: ssoStartBodySchema,
        response: { 200: ssoRedirectSchema, ...errorResponses(400, 404, 415, 429, 502) },
      },
    },
    async (request, reply) =>
      // The desktop app's sign-in runs in the system browser: no cookie of ours to set there.
      signIn.start(request.body, () => cookie.ensure(request, reply)),
  );

  app.get(
    authPaths.ssoSamlMetadata,
    {
      config: limited,
      schema: {
        operationId: 'getSamlServiceProviderMetadata',
        tags: ['auth'],
        // An identity provider reads it, with no API key.
        security: [],
        summary: 'Our SAML service provider’s metadata for the organization (entity id and ACS), as XML',
        description:
          'For the organization’s identity provider to read: our entity id (this URL), the Assertion ' +
          'Consumer Service (HTTP-POST) and that assertions must be signed. 404 `organisation_not_found`.',
        params: organisationParamsSchema,
        response: {
          200: z.any().describe('SAML 2.0 metadata (application/samlmetadata+xml)'),
          ...errorResponses(400, 404, 429),
        },
      },
    },
    async (request, reply) =>
      reply
        .type('application/samlmetadata+xml; charset=utf-8')
        .header('cache-control', 'public, max-age=300')
        .send(await saml.metadata(request.params.organisationId)),
  );

  // The identity provider's answer comes as a form the browser posts (HTTP-POST binding).
  await app.register(async (formScope) => {
    formScope.removeContentTypeParser('application/json');
    await formScope.register(formBody, { bodyLimit: ACS_BODY_LIMIT });
    formScope.withTypeProvider<ZodTypeProvider>().post(
      authPaths.ssoSamlAcs,
      {
        config: limited,
        schema: {
          operationId: 'samlAssertionConsumerService',
          tags: ['auth'],
          // The browser comes from the identity provider: the signed assertion and RelayState are checked.
          security: [],
          summary: 'Where a SAML identity provider’s answer is posted (the organization’s ACS, HTTP-POST)',
          description:
            'Always a 303 redirect: verified, to the callback with the RelayState, where the cookie of the ' +
            'browser that started is checked; refused (unsigned, tampered, expired, replayed, for another ' +
            'audience or recipient, for no request of ours…), to /login with `sso_error`, or a test ' +
            'sign-in’s result to the organization’s page.',
          consumes: ['application/x-www-form-urlencoded'],
          params: organisationParamsSchema,
          body: samlAcsBodySchema,
          response: {
            303: ssoReturnSchema.describe('Where the browser goes next (the body says so, as JSON)'),
            ...errorResponses(400, 413, 415, 429),
          },
        },
      },
      async (request, reply) => {
        const location = await saml.acs(request.params.organisationId, request.body, requestMeta(request));
        return reply
          .code(303)
          .header('cache-control', 'no-store')
          .header('location', location)
          .send({ location });
      },
    );
  });

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
          'The code works once, for two minutes (401 `sso_code_invalid`; also when the desktop app’s ' +
          'sign-in comes without the `code_verifier` of its challenge). `sso` says whether the person ' +
          'joined and holds a seat, and `sso.message` what to tell them (that no seat is free, say). An ' +
          'account with a second factor of its own answers its challenge instead of tokens ' +
          '(`second_factor_required`), for /auth/login/second-factor as after a password.',
        security: apiKeySecurity,
        body: ssoCompleteBodySchema,
        response: { 200: ssoCompleteAnswerSchema, ...errorResponses(400, 401, 403, 415, 429) },
      },
    },
    async (request) => signIn.complete(request.body.code, request.body.code_verifier, requestMeta(request)),
  );
};
