import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  licenseRefusalSchema,
  startTrialRequestSchema,
  trialRefusalSchema,
  trialStartedSchema,
} from '../../../shared/api/licenses.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { currentUser } from '../../identity/index.js';
import { bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import { requestMeta } from '../../platform/request-meta.js';
import type { TrialsService } from './service.js';

/** `POST /licenses/trials`: the signed-in customer's free trial of a plan. */
export const trialRoutes: FastifyPluginAsyncZod<{ trials: TrialsService }> = async (app, { trials }) => {
  app.addHook('onRequest', app.requireUser);

  app.post(
    apiPaths.licenses.trials,
    {
      schema: {
        operationId: 'startTrial',
        tags: ['licenses'],
        summary: 'Start a free trial of a plan (no card), activating this machine when its id is sent',
        description:
          'One trial of a plan per account, per person (e-mail addresses that differ by `+tags`, or by dots at Gmail, ' +
          'are one) and per machine. Refusals: 404 `plan_not_found`; 409 `trial_not_offered`, `plan_already_owned`, ' +
          '`trial_already_used` or `machine_trial_used` (with `earlier_trial`: when it ran).',
        security: bearerSecurity,
        body: startTrialRequestSchema,
        response: {
          201: trialStartedSchema,
          403: licenseRefusalSchema,
          409: trialRefusalSchema,
          ...errorResponses(400, 401, 404, 415),
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await trials.start(currentUser(request).user, request.body, requestMeta(request))),
  );
};
