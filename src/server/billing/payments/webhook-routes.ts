import type { FastifyRouteSchemaDef } from 'fastify/types/schema.js';
import { type FastifyPluginAsyncZod, validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { webhookAckSchema, webhookEventSchema } from '../../../shared/api/payments.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { errorResponses } from '../../platform/http/openapi-helpers.js';
import { requestMeta } from '../../platform/request-meta.js';
import type { WebhookHandler } from './webhooks.js';

const webhookHeadersSchema = z.looseObject({
  'x-razorpay-signature': z
    .string()
    .max(256)
    .optional()
    .describe('HMAC-SHA256 of the raw body with the webhook secret, hex'),
  'x-razorpay-event-id': z.string().max(256).optional().describe('Deduplicates redeliveries of one event'),
});

/**
 * The body is checked against the signature as the exact bytes received, so it reaches the
 * handler unparsed; the handler parses it after the signature holds. Other parts are validated.
 */
const bodyKeptRaw = (route: FastifyRouteSchemaDef<unknown>) =>
  route.httpPart === 'body'
    ? (data: unknown) => ({ value: data })
    : validatorCompiler(route as FastifyRouteSchemaDef<z.ZodType>);

/** Per client address; Razorpay retries a 429 later, so a burst above it is delayed, not lost. */
const WEBHOOKS_PER_MINUTE = 600;

/** `POST /payments/razorpay/webhook`: from Razorpay (or the sandbox), no API key, no bearer token. */
export const paymentWebhookRoutes: FastifyPluginAsyncZod<{ handleWebhook: WebhookHandler }> = async (
  app,
  { handleWebhook },
) => {
  // This plugin's scope only: JSON arrives as the Buffer the signature was computed over.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    done(null, body);
  });

  app.post(
    apiPaths.payments.webhook,
    {
      // Each refused delivery writes a security event: an unsigned flood must not fill the log.
      config: { rateLimit: { max: WEBHOOKS_PER_MINUTE, timeWindow: '1 minute' } },
      validatorCompiler: bodyKeptRaw,
      schema: {
        operationId: 'receiveRazorpayWebhook',
        tags: ['payments'],
        summary: 'Razorpay webhook: payment.captured, order.paid, payment.failed',
        description:
          'Checked with X-Razorpay-Signature over the raw body; a bad or missing signature is a 400 and a ' +
          'security event. Redeliveries (same X-Razorpay-Event-Id) answer `duplicate`; other event types ' +
          'answer `ignored`. In sandbox mode the sandbox secret signs webhooks.',
        security: [],
        headers: webhookHeadersSchema,
        body: webhookEventSchema,
        response: { 200: webhookAckSchema, ...errorResponses(400, 409, 413, 415, 429) },
      },
    },
    async (request) => {
      const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const status = await handleWebhook({
        rawBody,
        signature: request.headers['x-razorpay-signature'],
        eventId: request.headers['x-razorpay-event-id'],
        meta: requestMeta(request),
      });
      return { status };
    },
  );
};
