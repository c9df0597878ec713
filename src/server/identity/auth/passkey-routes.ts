import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { tokenResponseSchema } from '../../../shared/api/auth.js';
import { noBodySchema } from '../../../shared/api/common.js';
import {
  finishPasskeyRegistrationRequestSchema,
  passkeyCeremonySchema,
  passkeyListSchema,
  passkeyParamsSchema,
  passkeySchema,
  passkeySignInOptionsRequestSchema,
  passkeySignInRequestSchema,
  passkeyStepUpRequestSchema,
  renamePasskeyRequestSchema,
  stepUpDoneSchema,
} from '../../../shared/api/passkeys.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { currentUser } from '../plugins/authenticate.js';
import { apiKeySecurity, bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import { requestMeta } from '../../platform/request-meta.js';
import type { PasskeysService } from './passkeys.js';

export interface PasskeyRoutesOptions {
  passkeys: PasskeysService;
  /** Requests per minute and client address on the sign-in routes, as for the password sign-in. */
  rateLimitPerMinute: number;
}

const tags = ['passkeys'];

// The schemas check the JSON's shape; the library reads the answers as its own types.
const asRegistration = (response: unknown) => response as RegistrationResponseJSON;
const asAssertion = (response: unknown) => response as AuthenticationResponseJSON;

export const passkeyRoutes: FastifyPluginAsyncZod<PasskeyRoutesOptions> = async (
  app,
  { passkeys, rateLimitPerMinute },
) => {
  // One count per address across the passkey sign-in calls, apart from the password's.
  const signInLimit = app.rateLimit({
    max: rateLimitPerMinute,
    timeWindow: '1 minute',
    keyGenerator: (request) => `passkey-sign-in:${request.ip}`,
  });
  const paths = apiPaths.accountSecurity;

  app.get(
    paths.passkeys,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'listPasskeys',
        tags,
        summary: "The caller's passkeys, oldest first, with when each was last used",
        security: bearerSecurity,
        response: { 200: passkeyListSchema, ...errorResponses(401) },
      },
    },
    async (request) => ({ data: await passkeys.list(currentUser(request).user.id) }),
  );

  app.post(
    paths.passkeyRegistrationOptions,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'startPasskeyRegistration',
        tags,
        summary: 'Options for navigator.credentials.create(), and the ceremony token to send back',
        security: bearerSecurity,
        body: noBodySchema,
        response: { 200: passkeyCeremonySchema, ...errorResponses(401) },
      },
    },
    async (request) => passkeys.startRegistration(currentUser(request).user),
  );

  app.post(
    paths.passkeys,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'finishPasskeyRegistration',
        tags,
        summary: "Register the authenticator's new credential under a name",
        security: bearerSecurity,
        body: finishPasskeyRegistrationRequestSchema,
        response: { 201: passkeySchema, ...errorResponses(400, 401, 409, 415) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          await passkeys.finishRegistration(
            currentUser(request).user,
            { ...request.body, response: asRegistration(request.body.response) },
            requestMeta(request),
          ),
        ),
  );

  app.patch(
    paths.passkey,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'renamePasskey',
        tags,
        summary: 'Rename one of the caller’s passkeys',
        security: bearerSecurity,
        params: passkeyParamsSchema,
        body: renamePasskeyRequestSchema,
        response: { 200: passkeySchema, ...errorResponses(400, 401, 404, 415) },
      },
    },
    async (request) =>
      passkeys.rename(currentUser(request).user.id, request.params.passkeyId, request.body.name),
  );

  app.delete(
    paths.passkey,
    {
      onRequest: app.requireUser,
      // Taking a way of signing in away is a sensitive change: a recent sign-in or step-up first.
      preHandler: app.requireStepUp,
      schema: {
        operationId: 'removePasskey',
        tags,
        summary:
          'Remove one of the caller’s passkeys; it signs in no more. Needs a recent sign-in or step-up.',
        security: bearerSecurity,
        params: passkeyParamsSchema,
        response: { 204: z.null().describe('Removed'), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await passkeys.remove(currentUser(request).user.id, request.params.passkeyId, requestMeta(request));
      return reply.code(204).send(null);
    },
  );

  app.post(
    apiPaths.auth.passkeyLoginOptions,
    {
      onRequest: signInLimit,
      schema: {
        operationId: 'startPasskeySignIn',
        tags,
        summary:
          'Options for navigator.credentials.get(): any passkey of this site, or with `challenge` the account of that password sign-in',
        security: apiKeySecurity,
        body: passkeySignInOptionsRequestSchema,
        response: { 200: passkeyCeremonySchema, ...errorResponses(400, 401, 415, 429) },
      },
    },
    async (request) => passkeys.signInOptions(request.body?.challenge),
  );

  app.post(
    apiPaths.auth.passkeyLogin,
    {
      onRequest: signInLimit,
      schema: {
        operationId: 'signInWithPasskey',
        tags,
        summary:
          'Sign in with a passkey, or complete a password sign-in with one as the second factor (with `challenge`)',
        description:
          'A passkey alone is refused with 403 `sso_required` for an address whose organization requires ' +
          'single sign-on; a platform administrator’s sign-in there is logged as `sso_break_glass`.',
        security: apiKeySecurity,
        body: passkeySignInRequestSchema,
        response: { 200: tokenResponseSchema, ...errorResponses(400, 401, 403, 415, 429) },
      },
    },
    async (request) =>
      passkeys.signIn(
        { ...request.body, response: asAssertion(request.body.response) },
        requestMeta(request),
      ),
  );

  app.post(
    apiPaths.auth.stepUpPasskeyOptions,
    {
      onRequest: app.requireUser,
      config: { rateLimit: { max: rateLimitPerMinute, timeWindow: '1 minute' } },
      schema: {
        operationId: 'startPasskeyStepUp',
        tags,
        summary: "Options for confirming it is you with one of the caller's passkeys",
        security: bearerSecurity,
        body: noBodySchema,
        response: { 200: passkeyCeremonySchema, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => passkeys.stepUpOptions(currentUser(request).user.id),
  );

  app.post(
    apiPaths.auth.stepUpPasskey,
    {
      onRequest: app.requireUser,
      config: { rateLimit: { max: rateLimitPerMinute, timeWindow: '1 minute' } },
      schema: {
        operationId: 'stepUpWithPasskey',
        tags,
        summary: 'Confirm it is you with a passkey, so this session may make sensitive changes for a while',
        security: bearerSecurity,
        body: passkeyStepUpRequestSchema,
        response: { 200: stepUpDoneSchema, ...errorResponses(400, 401, 415, 429) },
      },
    },
    async (request) => {
      const { user, claims } = currentUser(request);
      return passkeys.stepUp(
        { userId: user.id, sessionId: claims.sid },
        { ...request.body, response: asAssertion(request.body.response) },
        requestMeta(request),
      );
    },
  );
};
