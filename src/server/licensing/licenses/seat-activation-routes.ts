import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { activateSeatRequestSchema, activationResultSchema } from '../../../shared/api/licenses.js';
import { organisationParamsSchema } from '../../../shared/api/organisations.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { currentUser } from '../../identity/index.js';
import { bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import { requestMeta } from '../../platform/request-meta.js';
import type { SeatActivationService } from './seat-activation-service.js';

/** A member activates the machine they call from on their seat of the organisation's license. */
export const seatActivationRoutes: FastifyPluginAsyncZod<{ seats: SeatActivationService }> = async (
  app,
  { seats },
) => {
  app.addHook('onRequest', app.requireUser);

  app.post(
    apiPaths.organisations.activateSeat,
    {
      schema: {
        operationId: 'activateOrganisationSeat',
        tags: ['organisations'],
        summary: 'Activate this machine on my seat of the organization’s license (idempotent per machine)',
        description:
          'For members holding a seat: no key is typed. The answer’s `license_key` is this machine’s ' +
          'own seat key (never the organization’s key), which the app checks with and which works ' +
          'only with this hardware id; each answer gives a fresh one and the one before stops. A lease ' +
          'names the seat. 403 `no_seat` without a seat; 409 `seat_machine_limit` ' +
          'over the machines a seat allows, `license_floating` on a floating plan (its machines take a seat ' +
          'with `/organisations/{organisationId}/floating/checkout`); 404 for anyone outside the organization.',
        security: bearerSecurity,
        params: organisationParamsSchema,
        body: activateSeatRequestSchema,
        response: {
          200: activationResultSchema,
          201: activationResultSchema,
          ...errorResponses(400, 401, 403, 404, 409, 415),
        },
      },
    },
    async (request, reply) => {
      const { created, ...result } = await seats.activateSeat(
        currentUser(request).user,
        request.params.organisationId,
        request.body,
        requestMeta(request),
      );
      return reply.code(created ? 201 : 200).send(result);
    },
  );
};
