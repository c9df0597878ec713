import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  activateBaseLicenseRequestSchema,
  activationIdSchema,
  activateLicenseRequestSchema,
  activatePlanRequestSchema,
  activationResultSchema,
  changePlanRequestSchema,
  currentPlanSchema,
  deactivateRequestSchema,
  featureUsageSchema,
  licenseFeaturesSchema,
  licenseIdSchema,
  licenseListSchema,
  licenseRefusalSchema,
  licenseSchema,
  licenseUsageSchema,
  renameActivationRequestSchema,
  trackUsageRequestSchema,
  trackUsageResponseSchema,
  usageQuerySchema,
} from '../../../shared/api/licenses.js';
import { apiErrorSchema } from '../../../shared/api/errors.js';
import {
  MAX_USAGE_BATCH,
  MAX_USAGE_EVENT_AGE_DAYS,
  usageBatchRequestSchema,
  usageBatchResponseSchema,
} from '../../../shared/api/usage.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { currentUser } from '../../identity/index.js';
import { bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import { requestMeta } from '../../platform/request-meta.js';
import type { LicensesService } from './service.js';

const tags = ['licenses'];
const paths = apiPaths.licenses;
const idParams = z.object({ id: licenseIdSchema });

/** Refused license checks answer with the status fields as well as the error. */
const refusals = { 400: licenseRefusalSchema, 403: licenseRefusalSchema, 404: licenseRefusalSchema };

export const licensesRoutes: FastifyPluginAsyncZod<{ licenses: LicensesService }> = async (
  app,
  { licenses },
) => {
  app.addHook('onRequest', app.requireUser);
  const user = (request: Parameters<typeof currentUser>[0]) => currentUser(request).user;

  app.get(
    paths.list,
    {
      schema: {
        operationId: 'listLicenses',
        tags,
        summary: 'The signed-in user’s licenses',
        security: bearerSecurity,
        response: { 200: licenseListSchema, ...errorResponses(401) },
      },
    },
    async (request) => licenses.list(user(request)),
  );

  app.get(
    paths.currentPlan,
    {
      schema: {
        operationId: 'getCurrentPlan',
        tags,
        summary: 'The plan of the user’s best active license',
        security: bearerSecurity,
        response: { 200: currentPlanSchema, ...errorResponses(401) },
      },
    },
    async (request) => licenses.currentPlan(user(request)),
  );

  app.post(
    paths.activate,
    {
      schema: {
        operationId: 'activateLicense',
        tags,
        summary: 'Activate this machine on a license key (idempotent per machine)',
        description:
          'Over the seat limit the answer is 409 with a message naming the limit. A license on a floating plan ' +
          'runs no machine on an activation: 409 `license_floating` (its machines take a seat with ' +
          '`/licensing/floating/checkout`).',
        security: bearerSecurity,
        body: activateLicenseRequestSchema,
        response: {
          200: activationResultSchema,
          201: activationResultSchema,
          ...refusals,
          ...errorResponses(401, 409, 415),
        },
      },
    },
    async (request, reply) => {
      const { created, ...result } = await licenses.activate(
        user(request),
        request.body,
        requestMeta(request),
      );
      return reply.code(created ? 201 : 200).send(result);
    },
  );

  app.post(
    paths.activateBase,
    {
      schema: {
        operationId: 'activateBaseLicense',
        tags,
        summary: 'Activate the free Base license (one per user) on this machine',
        security: bearerSecurity,
        body: activateBaseLicenseRequestSchema,
        response: {
          200: activationResultSchema,
          201: activationResultSchema,
          ...refusals,
          ...errorResponses(401, 409, 415),
        },
      },
    },
    async (request, reply) => {
      const { created, ...result } = await licenses.activateBase(
        user(request),
        request.body,
        requestMeta(request),
      );
      return reply.code(created ? 201 : 200).send(result);
    },
  );

  app.post(
    paths.activatePlan,
    {
      schema: {
        operationId: 'activatePlan',
        tags,
        summary: 'Activate a plan: free plans at once, paid plans after payment',
        security: bearerSecurity,
        body: activatePlanRequestSchema,
        response: { 200: licenseSchema, 201: licenseSchema, ...errorResponses(400, 401, 402, 404, 409, 415) },
      },
    },
    async (request, reply) => {
      const { license, created } = await licenses.activatePlan(user(request), request.body);
      return reply.code(created ? 201 : 200).send(license);
    },
  );

  app.get(
    paths.detail,
    {
      schema: {
        operationId: 'getLicense',
        tags,
        summary: 'One of the user’s licenses, with its machines',
        security: bearerSecurity,
        params: idParams,
        response: { 200: licenseSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => licenses.get(user(request), request.params.id),
  );

  app.post(
    paths.deactivate,
    {
      schema: {
        operationId: 'deactivateLicenseMachine',
        tags,
        summary: 'Free the seat of one machine',
        security: bearerSecurity,
        params: idParams,
        body: deactivateRequestSchema,
        response: { 200: licenseSchema, ...errorResponses(400, 401, 404, 415) },
      },
    },
    async (request) => licenses.deactivate(user(request), request.params.id, request.body),
  );

  app.patch(
    paths.activation,
    {
      schema: {
        operationId: 'renameLicenseMachine',
        tags,
        summary: 'Name a machine (null drops the name)',
        description:
          'The name is shown in preference to the name the device reports, and activating the same ' +
          'machine again keeps it. Another account’s machine answers 404.',
        security: bearerSecurity,
        params: idParams.extend({ activationId: activationIdSchema }),
        body: renameActivationRequestSchema,
        response: { 200: licenseSchema, ...errorResponses(400, 401, 404, 415) },
      },
    },
    async (request) =>
      licenses.rename(user(request), request.params.id, request.params.activationId, request.body.label),
  );

  app.get(
    paths.usage,
    {
      schema: {
        operationId: 'getLicenseUsage',
        tags,
        summary: 'Use this period per feature, and per day over the last `days`',
        security: bearerSecurity,
        params: idParams,
        querystring: usageQuerySchema,
        response: { 200: licenseUsageSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => licenses.usage(user(request), request.params.id, request.query.days),
  );

  app.post(
    paths.usage,
    {
      schema: {
        operationId: 'trackLicenseUsage',
        tags,
        summary: 'Track use of a metered feature (featureId, usageAmount, usageData)',
        description:
          'Counting is atomic; an amount that would pass the limit is refused with 409 and not counted.',
        security: bearerSecurity,
        params: idParams,
        body: trackUsageRequestSchema,
        response: {
          200: trackUsageResponseSchema,
          ...refusals,
          401: apiErrorSchema,
          409: apiErrorSchema,
          415: apiErrorSchema,
        },
      },
    },
    async (request) => licenses.trackUsage(user(request), request.params.id, request.body),
  );

  app.post(
    paths.usageEvents,
    {
      schema: {
        operationId: 'reportLicenseUsageEvents',
        tags,
        summary: 'Report a batch of usage events (each with its own id) of metered features',
        description:
          `At most ${MAX_USAGE_BATCH} events. Each event counts once per license: a retried batch ` +
          'answers its events as duplicates, and an id sent again with another amount or feature is ' +
          'refused. An event counts in the period it happened (`occurred_at`, up to ' +
          `${MAX_USAGE_EVENT_AGE_DAYS} days back). Each event gets its outcome; one refused event ` +
          '(allowance used up, unknown feature) does not stop the others.',
        security: bearerSecurity,
        params: idParams,
        body: usageBatchRequestSchema,
        response: {
          200: usageBatchResponseSchema,
          ...refusals,
          401: apiErrorSchema,
          413: apiErrorSchema,
          415: apiErrorSchema,
        },
      },
    },
    async (request) =>
      licenses.reportEvents(user(request), request.params.id, request.body.events, request.body.machine),
  );

  app.get(
    paths.features,
    {
      schema: {
        operationId: 'listLicenseFeatures',
        tags,
        summary: 'The license’s features with availability and use this period',
        security: bearerSecurity,
        params: idParams,
        response: { 200: licenseFeaturesSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => licenses.features(user(request), request.params.id),
  );

  app.get(
    paths.feature,
    {
      schema: {
        operationId: 'checkLicenseFeature',
        tags,
        summary: 'Check one feature (by id or key): available, limit, used, remaining',
        security: bearerSecurity,
        params: idParams.extend({ featureId: z.string().min(1).max(64) }),
        response: { 200: featureUsageSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => licenses.featureCheck(user(request), request.params.id, request.params.featureId),
  );

  app.put(
    paths.plan,
    {
      schema: {
        operationId: 'changeLicensePlan',
        tags,
        summary: 'Change the license’s plan (free plans; paid ones through a purchase)',
        security: bearerSecurity,
        params: idParams,
        body: changePlanRequestSchema,
        response: { 200: licenseSchema, ...refusals, ...errorResponses(401, 402, 409, 415) },
      },
    },
    async (request) => licenses.changePlan(user(request), request.params.id, request.body.planId),
  );
};
