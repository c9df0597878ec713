import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  machineTrialRefusalSchema,
  machineTrialSchema,
  startMachineTrialRequestSchema,
} from '../../../shared/api/machine-trials.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { apiKeySecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import type { MachineTrialsService } from './machine-trials.js';

/**
 * `POST /machine-trials`: the desktop app's trial before any account. No sign-in: the hardware id
 * and the app's API key are all it has, so the route is limited per client address like the other
 * open calls.
 */
export const machineTrialRoutes: FastifyPluginAsyncZod<{
  machineTrials: MachineTrialsService;
  rateLimitPerMinute: number;
}> = async (app, { machineTrials, rateLimitPerMinute }) => {
  app.post(
    apiPaths.machineTrials.start,
    {
      config: { rateLimit: { max: rateLimitPerMinute, timeWindow: '1 minute' } },
      schema: {
        operationId: 'startMachineTrial',
        tags: ['licensing'],
        summary: 'Start (or get back) this machine’s free trial, before any account',
        description:
          'One trial per machine and plan, ever. `plan_id` names a plan offering a trial; without it, the lowest-priced ' +
          'plan on offer with a trial. 201 for a new trial, 200 for the machine’s trial still running (the same end: a ' +
          'reinstall gets it back). The answer carries a signed lease marked `machine_trial`. Refusals: 404 ' +
          '`plan_not_found`; 409 `trial_not_offered`, `machine_trial_used` (it ended, or the machine had an account ' +
          'trial of the plan; `earlier_trial` says when it ran) or `machine_trial_claimed` (an account or a paid ' +
          'license took it over: sign in).',
        security: apiKeySecurity,
        body: startMachineTrialRequestSchema,
        response: {
          200: machineTrialSchema,
          201: machineTrialSchema,
          409: machineTrialRefusalSchema,
          ...errorResponses(400, 404, 415, 429),
        },
      },
    },
    async (request, reply) => {
      const { trial, created } = await machineTrials.start(request.body);
      return reply.code(created ? 201 : 200).send(trial);
    },
  );
};
