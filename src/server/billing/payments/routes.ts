import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { noBodySchema } from '../../../shared/api/common.js';
import {
  createOrderRequestSchema,
  paymentConfigSchema,
  paymentHistoryQuerySchema,
  paymentIdParamsSchema,
  paymentListSchema,
  paymentOrderSchema,
  paymentSchema,
  paymentVerificationSchema,
  sandboxCheckoutRequestSchema,
  sandboxCheckoutResultSchema,
  verifyPaymentRequestSchema,
} from '../../../shared/api/payments.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { currentUser } from '../../identity/index.js';
import { bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import { requestMeta } from '../../platform/request-meta.js';
import type { PaymentsService } from './service.js';

const tags = ['payments'];
const paths = apiPaths.payments;

/** The signed-in buyer's side of payments: config, order, sandbox checkout, verify, status, history. */
export const paymentsRoutes: FastifyPluginAsyncZod<{ payments: PaymentsService }> = async (
  app,
  { payments },
) => {
  app.addHook('onRequest', app.requireUser);
  const user = (request: Parameters<typeof currentUser>[0]) => currentUser(request).user;

  app.get(
    paths.config,
    {
      schema: {
        operationId: 'getPaymentConfig',
        tags,
        summary: 'Which checkout to show: Razorpay, or the sandbox (no money moves)',
        security: bearerSecurity,
        response: { 200: paymentConfigSchema, ...errorResponses(401) },
      },
    },
    async () => payments.config(),
  );

  app.post(
    paths.createOrder,
    {
      schema: {
        operationId: 'createRazorpayOrder',
        tags,
        summary: 'Open an order for a paid plan; the amount comes from the plan',
        description:
          'Send only `plan_id`: an amount or currency in the body is refused (400). A free, archived or ' +
          'unknown plan is refused (409/404). Open the checkout with `order_id` and `key_id`.',
        security: bearerSecurity,
        body: createOrderRequestSchema,
        response: { 201: paymentOrderSchema, ...errorResponses(400, 401, 404, 409, 415, 502) },
      },
    },
    async (request, reply) => reply.code(201).send(await payments.createOrder(user(request), request.body)),
  );

  app.post(
    paths.sandboxCheckout,
    {
      schema: {
        operationId: 'completeSandboxOrder',
        tags,
        summary: 'Sandbox checkout: pay or decline an order without money (sandbox provider only)',
        description:
          '`pay` answers what Razorpay Checkout hands the page (order id, payment id, signature): send it ' +
          'to verify. `decline` records a failed attempt and answers the failure. 404 when the server ' +
          'takes real payments or the order is not yours.',
        security: bearerSecurity,
        params: z.object({ orderId: z.string().trim().min(1).max(100) }),
        body: sandboxCheckoutRequestSchema,
        response: { 200: sandboxCheckoutResultSchema, ...errorResponses(400, 401, 404, 409, 415) },
      },
    },
    async (request) =>
      payments.completeSandboxCheckout(user(request), request.params.orderId, request.body.outcome),
  );

  app.post(
    paths.verify,
    {
      schema: {
        operationId: 'verifyRazorpayPayment',
        tags,
        summary: 'Verify a checkout and grant (or extend) the plan’s license, once',
        description:
          'The signature must be HMAC-SHA256(order_id|payment_id, key secret) for an order of the caller. ' +
          'Sending the same verified payment again answers the same payment and license.',
        security: bearerSecurity,
        body: verifyPaymentRequestSchema,
        response: { 200: paymentVerificationSchema, ...errorResponses(400, 401, 404, 409, 415) },
      },
    },
    async (request) => payments.verify(user(request), request.body, requestMeta(request)),
  );

  app.get(
    paths.status,
    {
      schema: {
        operationId: 'getPaymentStatus',
        tags,
        summary: 'One of your payments, by payment id or order id',
        security: bearerSecurity,
        params: paymentIdParamsSchema,
        response: { 200: paymentSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => payments.status(user(request), request.params.id),
  );

  app.get(
    paths.history,
    {
      schema: {
        operationId: 'listPayments',
        tags,
        summary: 'Your payments, newest first (paged)',
        security: bearerSecurity,
        querystring: paymentHistoryQuerySchema,
        response: { 200: paymentListSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => payments.history(user(request), request.query),
  );

  app.post(
    paths.dismiss,
    {
      schema: {
        operationId: 'dismissPayment',
        tags,
        summary: 'Hide one of your expired or failed orders from your payment history',
        description:
          'The order stays recorded (`dismissed=include` lists it) and a late payment still settles it. ' +
          'A paid order (409 `payment_already_completed`), a checkout not yet expired (409 ' +
          '`payment_in_progress`) and a subscription’s charge (409 `payment_not_dismissable`) are ' +
          'refused; another customer’s order is 404.',
        security: bearerSecurity,
        params: paymentIdParamsSchema,
        body: noBodySchema,
        response: { 200: paymentSchema, ...errorResponses(400, 401, 404, 409, 415) },
      },
    },
    async (request) => payments.dismiss(user(request), request.params.id),
  );
};
