import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { trialRefusalSchema } from '../../../shared/api/licenses.js';
import {
  cancelSubscriptionRequestSchema,
  cardChangeCheckoutSchema,
  changePlanRequestSchema,
  createSubscriptionRequestSchema,
  MAX_PAUSE_PERIODS,
  pauseSubscriptionRequestSchema,
  paymentMethodRequestSchema,
  PLAN_CHANGE_QUOTE_VALIDITY_MINUTES,
  planChangeQuoteSchema,
  planQuoteRequestSchema,
  sandboxSubscriptionCheckoutResultSchema,
  subscriptionActivationSchema,
  subscriptionCheckoutSchema,
  subscriptionDetailSchema,
  subscriptionIdParamsSchema,
  subscriptionListSchema,
  subscriptionSchema,
  verifySubscriptionRequestSchema,
} from '../../../shared/api/subscriptions.js';
import { noBodySchema } from '../../../shared/api/common.js';
import { sandboxCheckoutRequestSchema } from '../../../shared/api/payments.js';
import { apiPaths } from '../../../shared/api-paths.js';
import { currentUser } from '../../identity/index.js';
import { bearerSecurity, errorResponses } from '../../platform/http/openapi-helpers.js';
import { requestMeta } from '../../platform/request-meta.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import type { DbOrTransaction } from '../../platform/db/database.js';
import type { SubscriptionRow } from '../../platform/db/tables.js';
import type { SubscriptionsService } from './service.js';

const tags = ['subscriptions'];
const paths = apiPaths.subscriptions;

/** The signed-in customer's subscriptions: subscribe, see, cancel, resume, change plan, pay. */
export const subscriptionsRoutes: FastifyPluginAsyncZod<{ subscriptions: SubscriptionsService }> = async (
  app,
  { subscriptions },
) => {
  app.addHook('onRequest', app.requireUser);
  const user = (request: Parameters<typeof currentUser>[0]) => currentUser(request).user;
  const params = subscriptionIdParamsSchema;

  app.get(
    paths.list,
    {
      schema: {
        operationId: 'listSubscriptions',
        tags,
        summary: 'Your subscriptions, newest first (opened but unpaid ones left out)',
        security: bearerSecurity,
        response: { 200: subscriptionListSchema, ...errorResponses(401) },
      },
    },
    async (request) => ({ data: await subscriptions.list(user(request)) }),
  );

  app.post(
    paths.list,
    {
      schema: {
        operationId: 'createSubscription',
        tags,
        summary: 'Subscribe to a monthly or yearly plan; Checkout then authorizes the first charge',
        description:
          'Send only `plan_id`. Open Checkout with `subscription_id` and `key_id`, then send what it ' +
          'hands back to verify. A plan that is not billed monthly or yearly, or one you already ' +
          'subscribe to, is refused (409); so is a plan whose every feature a lifetime license you own ' +
          'already gives (409 `lifetime_license_owned`) unless `confirm_lifetime_overlap` is true. ' +
          'With `trial: true` the plan’s free trial comes first: Checkout only authorizes the card ' +
          '(`amount` 0) and the first charge is made at the trial’s end; a plan without a trial is ' +
          'refused (409 `trial_not_offered`), and so is a trial this account, e-mail address or ' +
          'machine had (409 `trial_already_used` or `machine_trial_used`, with `earlier_trial`).',
        security: bearerSecurity,
        body: createSubscriptionRequestSchema,
        response: {
          201: subscriptionCheckoutSchema,
          409: trialRefusalSchema,
          ...errorResponses(400, 401, 404, 415),
        },
      },
    },
    async (request, reply) => reply.code(201).send(await subscriptions.create(user(request), request.body)),
  );

  app.post(
    paths.sandboxCheckout,
    {
      schema: {
        operationId: 'completeSandboxSubscription',
        tags,
        summary: 'Sandbox checkout of a subscription: pay or decline its first charge (sandbox only)',
        security: bearerSecurity,
        params,
        body: sandboxCheckoutRequestSchema,
        response: {
          200: sandboxSubscriptionCheckoutResultSchema,
          ...errorResponses(400, 401, 404, 409, 415),
        },
      },
    },
    async (request) =>
      subscriptions.completeSandboxCheckout(user(request), request.params.id, request.body.outcome),
  );

  app.post(
    paths.verify,
    {
      schema: {
        operationId: 'verifySubscription',
        tags,
        summary: 'Verify a subscription’s checkout and start it: the first charge issues the license, once',
        description:
          'The signature must be HMAC-SHA256(payment_id|subscription_id, key secret) for a subscription of ' +
          'the caller. Sending the same verified payment again answers the same subscription and license. ' +
          'A card trial’s checkout starts the trial instead (the trial license, `charge` null); a trial ' +
          'had meanwhile (another checkout, on any server) is refused with 409 and the subscription canceled.',
        security: bearerSecurity,
        body: verifySubscriptionRequestSchema,
        response: {
          200: subscriptionActivationSchema,
          409: trialRefusalSchema,
          ...errorResponses(400, 401, 404, 415),
        },
      },
    },
    async (request) => subscriptions.verify(user(request), request.body, requestMeta(request)),
  );

  app.get(
    paths.detail,
    {
      schema: {
        operationId: 'getSubscription',
        tags,
        summary: 'One of your subscriptions with every charge',
        security: bearerSecurity,
        params,
        response: { 200: subscriptionDetailSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => subscriptions.detail(user(request), request.params.id),
  );

  app.post(
    paths.cancel,
    {
      schema: {
        operationId: 'cancelSubscription',
        tags,
        summary: 'Cancel: at the end of the paid period (default), or now',
        description:
          'Canceling now refunds the unused part of the paid period (`cancel_now_refund_minor`). Either way, ' +
          'the credit kept from a move to a cheaper plan is refunded (`cancel_credit_refund_minor`), each ' +
          'refund with a credit note; what of it cannot be refunded stays as `credit_minor`. Canceling at ' +
          'period end twice, or twice at once, refunds once.',
        security: bearerSecurity,
        params,
        body: cancelSubscriptionRequestSchema,
        response: { 200: subscriptionSchema, ...errorResponses(400, 401, 404, 409, 415) },
      },
    },
    async (request) => subscriptions.cancel(user(request), request.params.id, request.body),
  );

  app.post(
    paths.resume,
    {
      schema: {
        operationId: 'resumeSubscription',
        tags,
        summary: 'Take back a cancellation at period end, before the period ends',
        security: bearerSecurity,
        params,
        body: noBodySchema,
        response: { 200: subscriptionSchema, ...errorResponses(400, 401, 404, 409, 415) },
      },
    },
    async (request) => subscriptions.resume(user(request), request.params.id),
  );

  /** The customer's own pause, or its end, in the security log with the request's origin. */
  const pauseAudit =
    (request: Parameters<typeof currentUser>[0], type: 'subscriptionPaused' | 'subscriptionPauseEnded') =>
    (trx: DbOrTransaction, subscription: SubscriptionRow) =>
      recordSecurityEvent(trx, app.platform.clock, {
        type: securityEventTypes[type],
        severity: 'info',
        userId: subscription.user_id,
        actorId: user(request).id,
        meta: requestMeta(request),
        details: {
          subscription_id: subscription.id,
          provider_subscription_id: subscription.provider_subscription_id,
          status: subscription.status,
          pause_periods: subscription.pause_periods,
          pause_resumes_at: subscription.pause_resumes_at,
        },
      });

  app.post(
    paths.pause,
    {
      schema: {
        operationId: 'pauseSubscription',
        tags,
        summary: `Pause for 1 to ${MAX_PAUSE_PERIODS} billing periods from the end of the paid period`,
        description:
          'The license works to the end of the paid period, then reads `paused` (its check answers 403 ' +
          '`license_paused` with `resumes_at`) until the pause ends; nothing is charged meanwhile. At ' +
          '`pause.resumes_at` the subscription resumes and the next period is charged. Refused (409) for a ' +
          'subscription that is not active and paid up (`subscription_not_pausable`), already paused ' +
          '(`subscription_already_paused`), or with a pause planned (`pause_already_requested`). On Razorpay ' +
          'the subscription is paused there at once (502 when Razorpay refuses: nothing was paused).',
        security: bearerSecurity,
        params,
        body: pauseSubscriptionRequestSchema,
        response: { 200: subscriptionSchema, ...errorResponses(400, 401, 404, 409, 415, 502) },
      },
    },
    async (request) =>
      subscriptions.pause(
        user(request),
        request.params.id,
        request.body.periods,
        pauseAudit(request, 'subscriptionPaused'),
      ),
  );

  app.post(
    paths.unpause,
    {
      schema: {
        operationId: 'unpauseSubscription',
        tags,
        summary: 'Resume a paused subscription now, or withdraw a planned pause',
        description:
          'A paused subscription resumes now: a new billing period starts and is charged at once, and the ' +
          'license works again. A pause still to come is withdrawn: the subscription renews as before. ' +
          'Refused (409 `subscription_not_paused`) when neither applies.',
        security: bearerSecurity,
        params,
        body: noBodySchema,
        response: { 200: subscriptionSchema, ...errorResponses(400, 401, 404, 409, 415, 502) },
      },
    },
    async (request) =>
      subscriptions.unpause(user(request), request.params.id, pauseAudit(request, 'subscriptionPauseEnded')),
  );

  app.post(
    paths.planQuote,
    {
      schema: {
        operationId: 'quoteSubscriptionPlanChange',
        tags,
        summary: 'What moving to another plan costs now (the unused part of the period credited)',
        description: `The quote is kept for ${PLAN_CHANGE_QUOTE_VALIDITY_MINUTES} minutes (\`expires_at\`): confirm it with its \`id\` as \`quote_id\` to be charged exactly this.`,
        security: bearerSecurity,
        params,
        body: planQuoteRequestSchema,
        response: { 200: planChangeQuoteSchema, ...errorResponses(400, 401, 404, 409, 415) },
      },
    },
    async (request) => subscriptions.quote(user(request), request.params.id, request.body.plan_id),
  );

  app.post(
    paths.plan,
    {
      schema: {
        operationId: 'changeSubscriptionPlan',
        tags,
        summary: 'Move to another plan now, paying the quoted amount',
        description:
          'Send the quote’s `id` as `quote_id`: while the quote holds (until its `expires_at`, ' +
          `${PLAN_CHANGE_QUOTE_VALIDITY_MINUTES} minutes), the change is charged exactly its \`due_now_minor\`; once it ` +
          'expired (`quote_expired`), or when the subscription changed since (a renewal landed: `quote_changed`), ' +
          'the change is refused (409) and nothing is charged. Without `quote_id` the price is worked out ' +
          'again, and refused (409 `quote_changed`) when it differs from `expected_due_now_minor`. The sandbox moves the ' +
          'subscription at once (200). Razorpay answers 202 with a new subscription to the new plan: open ' +
          'Checkout with its `subscription_id` and verify it as a new subscription; when that first charge ' +
          'is paid, it takes over the license, and the old subscription is canceled at Razorpay with the ' +
          'quoted credit (`refund_minor`) refunded.',
        security: bearerSecurity,
        params,
        body: changePlanRequestSchema,
        response: {
          200: subscriptionSchema,
          202: subscriptionCheckoutSchema,
          ...errorResponses(400, 401, 404, 409, 415, 502),
        },
      },
    },
    async (request, reply) => {
      const outcome = await subscriptions.changePlan(user(request), request.params.id, request.body);
      if ('checkout' in outcome) return reply.code(202).send(outcome.checkout);
      return outcome.changed;
    },
  );

  app.put(
    paths.paymentMethod,
    {
      schema: {
        operationId: 'setSandboxSubscriptionPaymentMethod',
        tags,
        summary: 'Sandbox: choose whether the card on file pays; an unpaid charge is retried at once',
        security: bearerSecurity,
        params,
        body: paymentMethodRequestSchema,
        response: { 200: subscriptionSchema, ...errorResponses(400, 401, 404, 409, 415) },
      },
    },
    async (request) =>
      subscriptions.setPaymentMethod(user(request), request.params.id, request.body.sandbox_card),
  );

  app.post(
    paths.cardChange,
    {
      schema: {
        operationId: 'startSubscriptionCardChange',
        tags,
        summary: 'Razorpay: what Checkout opens with to change the card the subscription is charged to',
        description:
          'Open Razorpay Checkout with `subscription_id` and `subscription_card_change: 1`, then send its ' +
          'answer to the verify call. Razorpay charges the new card from then on, an outstanding charge at ' +
          'once. 409 for a sandbox subscription (its controls choose whether the card pays).',
        security: bearerSecurity,
        params,
        body: noBodySchema,
        response: { 200: cardChangeCheckoutSchema, ...errorResponses(400, 401, 404, 409, 415) },
      },
    },
    async (request) => subscriptions.openCardChange(user(request), request.params.id),
  );

  app.post(
    paths.cardChangeVerify,
    {
      schema: {
        operationId: 'verifySubscriptionCardChange',
        tags,
        summary: 'Razorpay: verify Checkout’s card change and show the new card',
        description:
          'The signature must be HMAC-SHA256(payment_id|subscription_id, key secret) for this subscription.',
        security: bearerSecurity,
        params,
        body: verifySubscriptionRequestSchema,
        response: { 200: subscriptionSchema, ...errorResponses(400, 401, 404, 409, 415, 502) },
      },
    },
    async (request) =>
      subscriptions.confirmCardChange(user(request), request.params.id, request.body, requestMeta(request)),
  );

  app.post(
    paths.payNow,
    {
      schema: {
        operationId: 'paySubscription',
        tags,
        summary: 'Pay the outstanding charge now (past due or suspended)',
        security: bearerSecurity,
        params,
        body: noBodySchema,
        response: { 200: subscriptionSchema, ...errorResponses(400, 401, 404, 409, 415) },
      },
    },
    async (request) => subscriptions.payNow(user(request), request.params.id),
  );

  app.post(
    paths.sandboxRenew,
    {
      schema: {
        operationId: 'renewSandboxSubscription',
        tags,
        summary: 'Sandbox: bring the next renewal (or retry, or end of grace) forward to now',
        description:
          'Makes the subscription’s next event happen now. A renewal (or a retry of a failed one) is ' +
          'charged to the sandbox card now, for the period a real renewal pays: from the end of the ' +
          'paid period, one month or year. The end of the grace period, of a canceled period or of a pause, ' +
          'and the start of a planned pause, are brought forward by moving the subscription’s dates back. ' +
          '404 when the server takes real payments.',
        security: bearerSecurity,
        params,
        body: noBodySchema,
        response: { 200: subscriptionSchema, ...errorResponses(400, 401, 404, 409, 415) },
      },
    },
    async (request) => subscriptions.sandboxAdvance(request.params.id, { user: user(request) }),
  );
};
