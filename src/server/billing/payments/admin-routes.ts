import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminPaymentListQuerySchema,
  adminPaymentListSchema,
  adminPaymentSchema,
  paymentIdParamsSchema,
} from '../../../shared/api/payments.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import type { AdminPaymentsService } from './admin-service.js';

const tags = ['payments', 'admin'];
const paths = apiPaths.payments;

/** `/payments/admin/payments`: every payment, administrators only. */
export const adminPaymentsRoutes: FastifyPluginAsyncZod<{ adminPayments: AdminPaymentsService }> = async (
  app,
  { adminPayments },
) => {
  app.addHook('onRequest', app.requireAdmin);

  app.get(
    paths.adminList,
    {
      schema: {
        operationId: 'adminListPayments',
        tags,
        summary: 'List payments (paged; search by order id, payment id or e-mail)',
        security: bearerSecurity,
        querystring: adminPaymentListQuerySchema,
        response: { 200: adminPaymentListSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => adminPayments.list(request.query),
  );

  app.get(
    paths.adminDetail,
    {
      schema: {
        operationId: 'adminGetPayment',
        tags,
        summary: 'One payment with its buyer, plan and license',
        security: bearerSecurity,
        params: paymentIdParamsSchema,
        response: { 200: adminPaymentSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => adminPayments.get(request.params.id),
  );
};
