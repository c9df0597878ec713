import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  organisationParamsSchema,
  seatPurchaseSchema,
  seatChangeBodySchema,
  seatQuoteSchema,
} from '../../../shared/api/organisations.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { currentUser } from '../../identity/index.js';
import { bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import { requestMeta } from '../../platform/request-meta.js';
import type { SeatPurchases } from './service.js';

const tags = ['organisations'];
const paths = apiPaths.organisations;

const who =
  'For the organization’s owner and admins (and platform administrators); a member is refused ' +
  '(403 `organisation_admin_required`), anyone else is told the organization does not exist (404).';

/** Buying more seats for an organisation's subscription: the quote, then the purchase. */
export const seatPurchaseRoutes: FastifyPluginAsyncZod<{ seatPurchases: SeatPurchases }> = async (
  app,
  { seatPurchases },
) => {
  app.addHook('onRequest', app.requireUser);

  app.post(
    paths.seatQuote,
    {
      schema: {
        operationId: 'quoteOrganisationSeats',
        tags,
        summary: 'What raising the organization’s seats to a new total costs now, and from the next period',
        description:
          `Send the new total. \`due_now_minor\` is the seats added for the rest of the current period ` +
          `(prorated); \`next_charge_minor\` is every seat for each later period. Fewer seats than are ` +
          `assigned: 409 \`seats_in_use\`; fewer than bought: 409 \`seats_reduction_unsupported\`. ${who}`,
        security: bearerSecurity,
        params: organisationParamsSchema,
        body: seatChangeBodySchema,
        response: { 200: seatQuoteSchema, ...errorResponses(400, 401, 403, 404, 409, 415) },
      },
    },
    async (request) =>
      seatPurchases.quote(currentUser(request).user, request.params.organisationId, request.body.seats),
  );

  app.post(
    paths.seats,
    {
      schema: {
        operationId: 'buyOrganisationSeats',
        tags,
        summary: 'Raise the organization’s seats to a new total, paying the prorated amount now',
        description:
          'Charges what the quote shows as due now, then raises the subscription’s and the license’s ' +
          'seats (and its machine limit) together; the next periods charge every seat. Seats are only ' +
          'added: paying for fewer is refused, the bought seats stay until the subscription ends. ' +
          `A declined card: 409 \`payment_declined\`. ${who}`,
        security: bearerSecurity,
        params: organisationParamsSchema,
        body: seatChangeBodySchema,
        response: { 200: seatPurchaseSchema, ...errorResponses(400, 401, 403, 404, 409, 415) },
      },
    },
    async (request) =>
      seatPurchases.buy(
        currentUser(request).user,
        request.params.organisationId,
        request.body.seats,
        requestMeta(request),
      ),
  );
};
