import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema as params } from '../../../shared/api/common.js';
import { buyCreditPacksRequestSchema } from '../../../shared/api/licenses.js';
import { paymentOrderSchema } from '../../../shared/api/payments.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { currentUser } from '../../identity/index.js';
import { bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import type { CreditPackOrders } from './service.js';

/** Buying credit packs of a license's metered feature: the order, paid through the usual checkout. */
export const creditPackRoutes: FastifyPluginAsyncZod<{ orders: CreditPackOrders }> = async (
  app,
  { orders },
) => {
  app.addHook('onRequest', app.requireUser);

  app.post(
    apiPaths.licenses.usagePacks,
    {
      schema: {
        operationId: 'buyCreditPacks',
        tags: ['payments'],
        summary: 'Open an order for credit packs of a metered feature of the license',
        description:
          'The amount is the feature’s pack price (in the plan’s currency) times `quantity` (1–100). Pay it ' +
          'as a plan’s order: the checkout with `order_id`, then verify; settling it adds the packs’ units, ' +
          'valid for USAGE_PACK_VALID_MONTHS. For the license’s holder, or an organization’s owner and ' +
          'admins (a member: 403 `organisation_admin_required`); anyone else’s license reads as 404. ' +
          '404 `feature_not_found`, 400 `feature_not_metered`, 409 `pack_not_sold` when the plan sells no pack of it.',
        security: bearerSecurity,
        params,
        body: buyCreditPacksRequestSchema,
        response: { 201: paymentOrderSchema, ...errorResponses(400, 401, 403, 404, 409, 415, 502) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await orders.createOrder(currentUser(request).user, request.params.id, request.body)),
  );
};
