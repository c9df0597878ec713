import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  billingDetailsAnswerSchema,
  billingDetailsRequestSchema,
  billingDetailsSchema,
  invoiceListQuerySchema,
  invoiceListSchema,
  invoiceSchema,
  paymentRefundsSchema,
  refundRequestSchema,
} from '../../../shared/api/invoices.js';
import { idParamsSchema } from '../../../shared/api/common.js';
import { paymentIdParamsSchema } from '../../../shared/api/payments.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { currentUser } from '../../identity/index.js';
import { bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import { actorOf } from '../../platform/security-log/admin-actor.js';
import type { RefundsService } from './refunds.js';
import type { BillingService } from './service.js';

const user = (request: Parameters<typeof currentUser>[0]) => currentUser(request).user;

/** The signed-in customer's billing details and invoices (`/billing/…`). */
export const billingRoutes: FastifyPluginAsyncZod<{ billing: BillingService }> = async (app, { billing }) => {
  app.addHook('onRequest', app.requireUser);
  const tags = ['billing'];
  const paths = apiPaths.billing;

  app.get(
    paths.details,
    {
      schema: {
        operationId: 'getBillingDetails',
        tags,
        summary: 'Your billing details (null until saved)',
        security: bearerSecurity,
        response: { 200: billingDetailsAnswerSchema, ...errorResponses(401) },
      },
    },
    async (request) => billing.details(user(request)),
  );

  app.put(
    paths.details,
    {
      schema: {
        operationId: 'updateBillingDetails',
        tags,
        summary: 'Save your billing details; printed on the invoices issued from now on',
        description:
          'For India (`country` IN) `tax_id` is a GSTIN, checked in full: state code, PAN, entity number, Z ' +
          'and the check character. Elsewhere it is the country’s tax id (letters, digits, spaces, . / -).',
        security: bearerSecurity,
        body: billingDetailsRequestSchema,
        response: { 200: billingDetailsSchema, ...errorResponses(400, 401, 415) },
      },
    },
    async (request) => billing.saveDetails(user(request), request.body),
  );

  app.get(
    paths.invoices,
    {
      schema: {
        operationId: 'listInvoices',
        tags,
        summary: 'Your invoices and credit notes, newest first (paged)',
        security: bearerSecurity,
        querystring: invoiceListQuerySchema,
        response: { 200: invoiceListSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => billing.invoices(user(request), request.query),
  );

  app.get(
    paths.invoice,
    {
      schema: {
        operationId: 'getInvoice',
        tags,
        summary: 'One of your invoices or credit notes (administrators: anyone’s)',
        security: bearerSecurity,
        params: idParamsSchema,
        response: { 200: invoiceSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => billing.invoice(user(request), request.params.id),
  );

  app.get(
    paths.invoicePdf,
    {
      schema: {
        operationId: 'getInvoicePdf',
        tags,
        summary: 'An invoice or credit note as PDF (its owner, or an administrator)',
        security: bearerSecurity,
        params: idParamsSchema,
        response: {
          200: z.any().describe('The PDF (application/pdf), named after the invoice number'),
          ...errorResponses(401, 404),
        },
      },
    },
    async (request, reply) => {
      const { fileName, pdf } = await billing.invoicePdf(user(request), request.params.id);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('content-length', String(pdf.length))
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );
};

/** Administrators: a customer's invoices and credit notes, and refunds of payments. */
export const adminBillingRoutes: FastifyPluginAsyncZod<{
  billing: BillingService;
  refunds: RefundsService;
}> = async (app, { billing, refunds }) => {
  app.addHook('onRequest', app.requireAdmin);

  app.get(
    apiPaths.admin.userInvoices,
    {
      schema: {
        operationId: 'adminListUserInvoices',
        tags: ['billing', 'admin'],
        summary: 'A customer’s invoices and credit notes, newest first (paged)',
        security: bearerSecurity,
        params: idParamsSchema,
        querystring: invoiceListQuerySchema,
        response: { 200: invoiceListSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => billing.invoicesOfUser(request.params.id, request.query),
  );

  app.get(
    apiPaths.payments.adminRefunds,
    {
      schema: {
        operationId: 'adminListPaymentRefunds',
        tags: ['payments', 'admin'],
        summary: 'A payment’s refunds, its invoice, and what may still be refunded',
        security: bearerSecurity,
        params: paymentIdParamsSchema,
        response: { 200: paymentRefundsSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => refunds.refunds(request.params.id),
  );

  app.post(
    apiPaths.payments.adminRefunds,
    {
      // Money leaves: a recent sign-in or step-up first.
      preHandler: app.requireStepUp,
      schema: {
        operationId: 'adminRefundPayment',
        tags: ['payments', 'admin'],
        summary: 'Refund all or part of a paid payment; issues a credit note',
        description:
          'Razorpay payments are refunded through Razorpay; sandbox ones are recorded locally. Leave `amount` ' +
          'out to refund what is left. The license is kept, revoked (with `reason`, which its owner sees) or ' +
          'ended now (`shorten`). More than is left to refund is a 409, also when two refunds race.',
        security: bearerSecurity,
        params: paymentIdParamsSchema,
        body: refundRequestSchema,
        response: { 201: paymentRefundsSchema, ...errorResponses(400, 401, 403, 404, 409, 415, 502) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await refunds.refund(actorOf(request), request.params.id, request.body)),
  );
};
