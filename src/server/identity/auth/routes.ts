import { noBodySchema } from '../../../shared/api/common.js';
import formBody from '@fastify/formbody';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  emailOnlyRequestSchema,
  loginFormSchema,
  loginJsonRequestSchema,
  loginResponseSchema,
  logoutRequestSchema,
  refreshRefusalSchema,
  refreshRequestSchema,
  resetPasswordRequestSchema,
  tokenResponseSchema,
  validateTokenRequestSchema,
  accountSessionListSchema,
  sessionParamsSchema,
  signedOutOthersSchema,
  validateTokenResponseSchema,
  verifyRegistrationRequestSchema,
  registerRequestSchema,
} from '../../../shared/api/auth.js';
import { messageResponseSchema } from '../../../shared/api/errors.js';
import { changePasswordRequestSchema } from '../../../shared/api/users.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { notAuthenticated } from '../../platform/http-error.js';
import { apiKeySecurity, bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import { bearerToken, currentUser } from '../plugins/authenticate.js';
import { requestMeta } from '../../platform/request-meta.js';
import {
  secondFactorLoginRequestSchema,
  stepUpRequestSchema,
  stepUpResponseSchema,
} from '../../../shared/api/two-factor.js';
import type { SessionBindingCookie } from '../plugins/session-binding-cookie.js';
import type { SecondFactorSignIn } from './second-factor-sign-in.js';
import type { AccountSessions } from './account-sessions.js';
import type { AuthService } from './service.js';
import type { StepUp } from './step-up.js';

export interface AuthRoutesOptions {
  auth: AuthService;
  /** The second step of a sign-in to an account with a second factor. */
  secondFactorSignIn: SecondFactorSignIn;
  /** A fresh proof that lets the session make sensitive changes. */
  stepUp: StepUp;
  /** Requests per minute and client address on the routes that guess passwords or send mail. */
  rateLimitPerMinute: number;
  /** The cookie a web session's refresh tokens are bound to. */
  bindingCookie: SessionBindingCookie;
  /** The caller's own sessions: listed, and ended one by one or all but this one. */
  sessions: AccountSessions;
}

const tags = ['auth'];

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (
  app,
  { auth, secondFactorSignIn, stepUp, rateLimitPerMinute, bindingCookie, sessions },
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
          operationId: 'signInWithForm',
          tags,
          summary: 'Sign in with a form (OAuth2 password flow); `username` is the e-mail',
          description:
            'An account with a second factor gets no tokens yet: `second_factor_required` and a challenge for /auth/login/second-factor.',
          security: apiKeySecurity,
          consumes: ['application/x-www-form-urlencoded'],
          body: loginFormSchema,
          response: { 200: loginResponseSchema, ...errorResponses(400, 401, 403, 415, 429) },
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
        operationId: 'signIn',
        tags,
        summary: 'Sign in with JSON',
        description:
          'An account with a second factor gets no tokens yet: `second_factor_required` and a challenge for /auth/login/second-factor.',
        security: apiKeySecurity,
        body: loginJsonRequestSchema,
        response: { 200: loginResponseSchema, ...errorResponses(400, 401, 403, 415, 429) },
      },
    },
    async (request) =>
      auth.login(
        request.body.email ?? request.body.username ?? '',
        request.body.password,
        requestMeta(request),
      ),
  );

  // Guesses codes as the sign-in guesses passwords: the same limiter, the same lockout.
  app.post(
    paths.loginSecondFactor,
    {
      onRequest: signInLimit,
      schema: {
        operationId: 'completeSecondFactorSignIn',
        tags,
        summary: 'Second step of a sign-in: the challenge and a code from the app (or a recovery code)',
        description:
          'Each code works once (a replay within its 30 seconds is refused), as does each recovery code. Wrong codes count toward the sign-in lockout; a challenge dies after a few of them or after five minutes (401 `challenge_expired`).',
        security: apiKeySecurity,
        body: secondFactorLoginRequestSchema,
        response: { 200: tokenResponseSchema, ...errorResponses(400, 401, 415, 429) },
      },
    },
    async (request) => {
      const { challenge, ...answer } = request.body;
      return secondFactorSignIn.complete(challenge, answer, requestMeta(request));
    },
  );

  app.post(
    paths.stepUp,
    {
      onRequest: signInLimit,
      preHandler: app.requireUser,
      schema: {
        operationId: 'stepUp',
        tags,
        summary: 'Confirm it is you (password, app code or recovery code) before a sensitive change',
        description:
          'Sensitive changes answer 403 `step_up_required` unless the session signed in or stepped up within the last 10 minutes.',
        security: bearerSecurity,
        body: stepUpRequestSchema,
        response: { 200: stepUpResponseSchema, ...errorResponses(400, 401, 403, 415, 429) },
      },
    },
    async (request) => stepUp.stepUp(currentUser(request), request.body, requestMeta(request)),
  );

  app.post(
    paths.register,
    {
      config: limited,
      schema: {
        operationId: 'register',
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
        operationId: 'verifyRegistration',
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
        operationId: 'resendVerification',
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
  for (const [url, operationId] of [
    [paths.refresh, 'refreshSession'],
    [paths.refreshToken, 'refreshSessionWithToken'],
  ] as const) {
    app.post(
      url,
      {
        config: limited,
        schema: {
          operationId,
          tags,
          summary: 'Exchange a refresh token for new tokens; each refresh token works once',
          description:
            'A session signed in with the web client key is bound to the HttpOnly cookie set with its tokens: without that cookie its refresh token is refused (401), whichever key presents it.',
          security: apiKeySecurity,
          body: refreshRequestSchema,
          response: { 200: tokenResponseSchema, ...errorResponses(400, 429), 401: refreshRefusalSchema },
        },
      },
      async (request) =>
        auth.refresh(request.body.refresh_token, requestMeta(request), bindingCookie.read(request)),
    );
  }

  app.post(
    paths.logout,
    {
      preHandler: app.optionalUser,
      schema: {
        operationId: 'signOut',
        tags,
        summary: 'End the session of a refresh token',
        security: bearerSecurity,
        body: logoutRequestSchema,
        response: { 200: messageResponseSchema, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      bindingCookie.clear(reply);
      return { message: await auth.logout(request.body.refreshToken, request.auth?.user.id) };
    },
  );

  app.post(
    paths.logoutAll,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'signOutEverywhere',
        tags,
        summary: 'Sign out on every device: ends all sessions of the caller, this one included',
        security: bearerSecurity,
        body: noBodySchema,
        response: { 200: messageResponseSchema, ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      bindingCookie.clear(reply);
      return { message: await auth.logoutEverywhere(currentUser(request).user.id, requestMeta(request)) };
    },
  );

  app.post(
    paths.logoutOthers,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'signOutOtherSessions',
        tags,
        summary: 'Sign out everywhere else: ends every session of the caller but this one',
        security: bearerSecurity,
        body: noBodySchema,
        response: { 200: signedOutOthersSchema, ...errorResponses(401) },
      },
    },
    async (request) => {
      const { user, claims } = currentUser(request);
      return sessions.revokeOthers(user.id, claims.sid, requestMeta(request));
    },
  );

  app.get(
    apiPaths.users.sessions,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'listAccountSessions',
        tags,
        summary: 'The caller’s live sessions: device, address, sign-in and last activity',
        security: bearerSecurity,
        response: { 200: accountSessionListSchema, ...errorResponses(401) },
      },
    },
    async (request) => {
      const { user, claims } = currentUser(request);
      return { data: await sessions.list(user.id, claims.sid) };
    },
  );

  app.delete(
    apiPaths.users.session,
    {
      onRequest: app.requireUser,
      schema: {
        operationId: 'revokeAccountSession',
        tags,
        summary: 'End one of the caller’s sessions: that device must sign in again',
        security: bearerSecurity,
        params: sessionParamsSchema,
        response: { 200: messageResponseSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => ({
      message: await sessions.revoke(currentUser(request).user.id, request.params.id, requestMeta(request)),
    }),
  );

  app.post(
    paths.validateToken,
    {
      schema: {
        operationId: 'validateToken',
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
      if (!token) throw notAuthenticated();
      const { user, claims } = await auth.authenticate(token);
      return { valid: true as const, user_id: user.id, role: user.role, exp: claims.exp };
    },
  );

  app.post(
    paths.forgotPassword,
    {
      config: limited,
      schema: {
        operationId: 'requestPasswordReset',
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
        operationId: 'resetPassword',
        tags,
        summary: 'Set a new password with the token from the reset link; signs out every device',
        description:
          '403 `sso_required` for an address whose organization requires single sign-on (the link stays ' +
          'usable); a platform administrator’s reset there is logged as `sso_break_glass`.',
        security: apiKeySecurity,
        body: resetPasswordRequestSchema,
        response: { 200: messageResponseSchema, ...errorResponses(400, 403, 429) },
      },
    },
    async (request) => ({
      message: await auth.resetPassword(request.body.token, request.body.new_password, requestMeta(request)),
    }),
  );

  // Clients know one operation under two names: POST /auth/change-password and PUT /users/me/password.
  for (const [method, url, operationId] of [
    ['POST', paths.changePassword, 'changePassword'],
    ['PUT', apiPaths.users.password, 'updatePassword'],
  ] as const) {
    app.route({
      method,
      url,
      config: limited,
      onRequest: app.requireUser,
      preHandler: app.requireStepUp,
      schema: {
        operationId,
        tags,
        summary: 'Change the password; signs out every device',
        description: 'Needs a recent sign-in or step-up (403 `step_up_required`).',
        security: bearerSecurity,
        body: changePasswordRequestSchema,
        response: { 200: messageResponseSchema, ...errorResponses(400, 401, 403, 415, 429) },
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
