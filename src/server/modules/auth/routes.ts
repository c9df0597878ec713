import { noBodySchema } from '../../../shared/api/common.js';
import formBody from '@fastify/formbody';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  emailOnlyRequestSchema,
  loginFormSchema,
  loginJsonRequestSchema,
  logoutRequestSchema,
  refreshRefusalSchema,
  refreshRequestSchema,
  resetPasswordRequestSchema,
  tokenResponseSchema,
  validateTokenRequestSchema,
  validateTokenResponseSchema,
  verifyRegistrationRequestSchema,
  registerRequestSchema,
} from '../../../shared/api/auth.js';
import { messageResponseSchema } from '../../../shared/api/errors.js';
import { changePasswordRequestSchema } from '../../../shared/api/users.js';
import { apiPaths } from '../../../shared/routes.js';
import { unauthorized } from '../../http-error.js';
import { apiKeySecurity, bearerSecurity, errorResponses } from '../../plugins/openapi-helpers.js';
import { bearerToken, currentUser } from '../../plugins/authenticate.js';
import { requestMeta } from '../../request-meta.js';
import type { AuthService } from './service.js';

export interface AuthRoutesOptions {
  auth: AuthService;
  /** Requests per minute and client address on the routes that guess passwords or send mail. */
  rateLimitPerMinute: number;
}

const tags = ['auth'];

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (
  app,
  { auth, rateLimitPerMinute },
) => {
  const limited = { rateLimit: { max: rateLimitPerMinute, timeWindow: '1 minute' } };
  // Both sign-in routes guess the same passwords, so one limiter (one count per address) guards both.
  const signInLimit = app.rateLimit({
    ...limited.rateLimit,
    keyGenerator: (request) => `sign-in:${request.ip}`,
  });
  const paths = apiPaths.auth;

  // The OAuth2 password flow posts a form; only this route parses one.
  await app.register(async (formScope) => {
    // The route speaks form only: JSON (inherited from the app) gets 415 like any other type.
    formScope.removeContentTypeParser('application/json');
    await formScope.register(formBody, { bodyLimit: 4096 });
    formScope.withTypeProvider<ZodTypeProvider>().post(
      paths.login,
      {
        onRequest: signInLimit,
        schema: {
          tags,
          summary: 'Sign in with a form (OAuth2 password flow); `username` is the e-mail',
          security: apiKeySecurity,
          consumes: ['application/x-www-form-urlencoded'],
          body: loginFormSchema,
          response: { 200: tokenResponseSchema, ...errorResponses(400, 401, 403, 415, 429) },
        },
      },
      async (request) => auth.login(request.body.username, request.body.password, requestMeta(request)),
    );
  });

  app.post(
    paths.loginJson,
    {
      onRequest: signInLimit,
      schema: {
        tags,
        summary: 'Sign in with JSON',
        security: apiKeySecurity,
        body: loginJsonRequestSchema,
        response: { 200: tokenResponseSchema, ...errorResponses(400, 401, 403, 415, 429) },
      },
    },
    async (request) =>
      auth.login(
        request.body.email ?? request.body.username ?? '',
        request.body.password,
        requestMeta(request),
      ),
  );

  app.post(
    paths.register,
    {
      config: limited,
      schema: {
        tags,
        summary: 'Create an account; a confirmation link is e-mailed. Answers alike for taken addresses.',
        security: apiKeySecurity,
        body: registerRequestSchema,
        response: { 202: messageResponseSchema, ...errorResponses(400, 415, 429) },
      },
    },
    async (request, reply) =>
      reply.code(202).send({ message: await auth.register(request.body, requestMeta(request)) }),
  );

  app.post(
    paths.verifyRegistration,
    {
      config: limited,
      schema: {
        tags,
        summary: 'Confirm the e-mail address with the token from the confirmation link',
        security: apiKeySecurity,
        body: verifyRegistrationRequestSchema,
        response: { 200: messageResponseSchema, ...errorResponses(400, 429) },
      },
    },
    async (request) => ({ message: await auth.verifyRegistration(request.body.token, requestMeta(request)) }),
  );

  app.post(
    paths.resendVerification,
    {
      config: limited,
      schema: {
        tags,
        summary: 'Send a new confirmation link to an unconfirmed account',
        security: apiKeySecurity,
        body: emailOnlyRequestSchema,
        response: { 202: messageResponseSchema, ...errorResponses(400, 429) },
      },
    },
    async (request, reply) =>
      reply.code(202).send({ message: await auth.resendVerification(request.body.email) }),
  );

  // Clients also call /auth/refresh-token; both names refresh alike.
  for (const url of [paths.refresh, paths.refreshToken]) {
    app.post(
      url,
      {
        config: limited,
        schema: {
          tags,
          summary: 'Exchange a refresh token for new tokens; each refresh token works once',
          security: apiKeySecurity,
          body: refreshRequestSchema,
          response: { 200: tokenResponseSchema, ...errorResponses(400, 429), 401: refreshRefusalSchema },
        },
      },
      async (request) => auth.refresh(request.body.refresh_token, requestMeta(request)),
    );
  }

  app.post(
    paths.logout,
    {
      preHandler: app.optionalUser,
      schema: {
        tags,
        summary: 'End the session of a refresh token',
        security: bearerSecurity,
        body: logoutRequestSchema,
        response: { 200: messageResponseSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => ({ message: await auth.logout(request.body.refreshToken, request.auth?.user.id) }),
  );

  app.post(
    paths.logoutAll,
    {
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: 'Sign out on every device: ends all sessions of the caller, this one included',
        security: bearerSecurity,
        body: noBodySchema,
        response: { 200: messageResponseSchema, ...errorResponses(401) },
      },
    },
    async (request) => ({
      message: await auth.logoutEverywhere(currentUser(request).user.id, requestMeta(request)),
    }),
  );

  app.post(
    paths.validateToken,
    {
      schema: {
        tags,
        summary: 'Check an access token (the body `token`, else the bearer token)',
        security: bearerSecurity,
        // Fastify validates a missing body as null: a bearer-only call must pass the schema.
        body: validateTokenRequestSchema.nullish(),
        response: { 200: validateTokenResponseSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const token = request.body?.token ?? bearerToken(request);
      if (!token) throw unauthorized('not_authenticated', 'Not authenticated');
      const { user, claims } = await auth.authenticate(token);
      return { valid: true as const, user_id: user.id, role: user.role, exp: claims.exp };
    },
  );

  app.post(
    paths.forgotPassword,
    {
      config: limited,
      schema: {
        tags,
        summary: 'E-mail a password reset link. Answers alike for unknown addresses.',
        security: apiKeySecurity,
        body: emailOnlyRequestSchema,
        response: { 202: messageResponseSchema, ...errorResponses(400, 429) },
      },
    },
    async (request, reply) =>
      reply.code(202).send({ message: await auth.forgotPassword(request.body.email, requestMeta(request)) }),
  );

  app.post(
    paths.resetPassword,
    {
      config: limited,
      schema: {
        tags,
        summary: 'Set a new password with the token from the reset link; signs out every device',
        security: apiKeySecurity,
        body: resetPasswordRequestSchema,
        response: { 200: messageResponseSchema, ...errorResponses(400, 429) },
      },
    },
    async (request) => ({
      message: await auth.resetPassword(request.body.token, request.body.new_password, requestMeta(request)),
    }),
  );

  // Clients know one operation under two names: POST /auth/change-password and PUT /users/me/password.
  for (const [method, url] of [
    ['POST', paths.changePassword],
    ['PUT', apiPaths.users.password],
  ] as const) {
    app.route({
      method,
      url,
      config: limited,
      onRequest: app.requireUser,
      schema: {
        tags,
        summary: 'Change the password; signs out every device',
        security: bearerSecurity,
        body: changePasswordRequestSchema,
        response: { 200: messageResponseSchema, ...errorResponses(400, 401, 415, 429) },
      },
      handler: async (request) => ({
        message: await auth.changePassword(
          currentUser(request).user.id,
          request.body.current_password,
          request.body.new_password,
          requestMeta(request),
        ),
      }),
    });
  }
};
