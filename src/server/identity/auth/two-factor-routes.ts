import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { noBodySchema } from '../../../shared/api/common.js';
import { messageResponseSchema } from '../../../shared/api/errors.js';
import {
  recoveryCodeSchema,
  recoveryCodesSchema,
  totpCodeRequestSchema,
  totpCodeSchema,
  totpEnrolmentSchema,
  twoFactorStatusSchema,
} from '../../../shared/api/two-factor.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { currentUser } from '../plugins/authenticate.js';
import { bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import { requestMeta } from '../../platform/request-meta.js';
import type { TwoFactorService } from './two-factor-service.js';

export interface TwoFactorRoutesOptions {
  twoFactor: TwoFactorService;
  /** Requests per minute and client address on the routes that check codes. */
  rateLimitPerMinute: number;
}

const tags = ['two-factor'];

/** Removing the app takes a fresh code from it, or a recovery code when the phone is lost. */
const disableTotpRequestSchema = z
  .union([z.strictObject({ code: totpCodeSchema }), z.strictObject({ recovery_code: recoveryCodeSchema })])
  .meta({ id: 'DisableTotpRequest' });

/** The signed-in account's authenticator app and recovery codes. */
export const twoFactorRoutes: FastifyPluginAsyncZod<TwoFactorRoutesOptions> = async (
  app,
  { twoFactor, rateLimitPerMinute },
) => {
  app.addHook('onRequest', app.requireUser);
  const paths = apiPaths.accountSecurity;
  const limited = { rateLimit: { max: rateLimitPerMinute, timeWindow: '1 minute' } };

  app.get(
    paths.twoFactor,
    {
      schema: {
        operationId: 'getTwoFactorStatus',
        tags,
        summary: 'Which second factors the account has, and whether the platform requires one',
        security: bearerSecurity,
        response: { 200: twoFactorStatusSchema, ...errorResponses(401) },
      },
    },
    async (request) => twoFactor.status(currentUser(request).user),
  );

  app.post(
    paths.totp,
    {
      schema: {
        operationId: 'startTotpEnrolment',
        tags,
        summary: 'Start setting up an authenticator app: its secret, otpauth URI and QR code',
        description:
          'Starting again replaces an enrollment that was not confirmed. Confirm with a first code.',
        security: bearerSecurity,
        body: noBodySchema,
        response: { 200: totpEnrolmentSchema, ...errorResponses(400, 401, 409, 415) },
      },
    },
    async (request) => twoFactor.startTotpEnrolment(currentUser(request).user),
  );

  app.post(
    paths.totpConfirm,
    {
      config: limited,
      schema: {
        operationId: 'confirmTotpEnrolment',
        tags,
        summary: 'Confirm the authenticator app with its first code; answers ten recovery codes, shown once',
        security: bearerSecurity,
        body: totpCodeRequestSchema,
        response: { 200: recoveryCodesSchema, ...errorResponses(400, 401, 409, 415, 429) },
      },
    },
    async (request) => ({
      recovery_codes: await twoFactor.confirmTotp(
        currentUser(request).user,
        request.body.code,
        requestMeta(request),
      ),
    }),
  );

  app.delete(
    paths.totp,
    {
      config: limited,
      preHandler: app.requireStepUp,
      schema: {
        operationId: 'disableTotp',
        tags,
        summary: 'Remove the authenticator app, with a fresh code from it (or a recovery code)',
        description: 'Needs a recent sign-in or step-up (403 `step_up_required`).',
        security: bearerSecurity,
        body: disableTotpRequestSchema,
        response: { 200: messageResponseSchema, ...errorResponses(400, 401, 403, 409, 415, 429) },
      },
    },
    async (request) => {
      await twoFactor.disableTotp(currentUser(request).user, request.body, requestMeta(request));
      return { message: 'The authenticator app was removed.' };
    },
  );

  app.post(
    paths.recoveryCodes,
    {
      preHandler: app.requireStepUp,
      schema: {
        operationId: 'regenerateRecoveryCodes',
        tags,
        summary: 'Make ten new recovery codes, shown once; the old ones stop working',
        description: 'Needs a recent sign-in or step-up (403 `step_up_required`).',
        security: bearerSecurity,
        body: noBodySchema,
        response: { 200: recoveryCodesSchema, ...errorResponses(400, 401, 403, 409, 415) },
      },
    },
    async (request) => ({
      recovery_codes: await twoFactor.regenerateRecoveryCodes(
        currentUser(request).user,
        requestMeta(request),
      ),
    }),
  );
};
