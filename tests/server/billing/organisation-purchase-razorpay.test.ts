import { expect, it } from 'vitest';
import { subscriptionCheckoutSchema } from '../../../src/shared/api/subscriptions.js';
import type { PaymentProvider, SubscriptionGateway } from '../../../src/server/billing/payments/provider.js';
import { chargeForPrice } from '../../../src/server/billing/invoices/tax.js';
import { describeOnEveryDatabase } from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import { planByCode } from '../helpers/license-helpers.js';
import {
  buySeats,
  openOrganisationCheckout,
  organisationWithRoles,
} from '../helpers/organisation-purchase-helpers.js';
import { licenseRow } from '../helpers/subscription-helpers.js';

// Buying the per-seat plan through Razorpay: its plan is one seat's charge and the subscription's
// `quantity` is the seats, so Razorpay charges exactly what the sandbox would. A stand-in provider
// records what would be sent to Razorpay (tests/server/billing/subscriptions-razorpay.test.ts covers the SDK's
// requests themselves).

const sent: {
  plans: Parameters<SubscriptionGateway['createPlan']>[0][];
  subscriptions: Parameters<SubscriptionGateway['createSubscription']>[0][];
} = {
  plans: [],
  subscriptions: [],
};
let sequence = 0;

const gateway: SubscriptionGateway = {
  async createPlan(input) {
    sent.plans.push(input);
    return `plan_Seat${++sequence}`;
  },
  async createSubscription(input) {
    sent.subscriptions.push(input);
    return `sub_Seat${++sequence}`;
  },
  addCharge: () => Promise.reject(new Error('no add-ons here')),
  findCharge: () => Promise.reject(new Error('no add-ons here')),
  async cancelSubscription() {},
  pauseSubscription: () => Promise.reject(new Error('no pauses here')),
  resumeSubscription: () => Promise.reject(new Error('no pauses here')),
  async paymentMethodOf() {
    return 'Card •••• 1111 (Visa)';
  },
  async statusOf() {
    return 'active';
  },
};

const provider: PaymentProvider = {
  name: 'razorpay',
  sandbox: false,
  keyId: 'rzp_test_Seats0000001',
  createOrder: () => Promise.reject(new Error('no orders here')),
  subscriptions: gateway,
  refundPayment: () => Promise.reject(new Error('no refunds here')),
  isPaymentSignatureValid: () => false,
  isSubscriptionSignatureValid: (_subscription, _payment, signature) => signature === 'good-signature',
  acceptsWebhooks: false,
  isWebhookSignatureValid: () => false,
};

describeOnEveryDatabase(
  'organisations: buying the per-seat plan through Razorpay',
  (server) => {
    it('mirrors one seat as the plan, subscribes the seats as its quantity, and issues the seats on the first charge', async () => {
      const s = server();
      const org = await organisationWithRoles(s);
      const business = await planByCode(s, 'business-monthly');
      const perSeat = chargeForPrice(Number(business.price_minor), s.config.invoices.tax);

      const opened = await openOrganisationCheckout(s, org.admin, { organisation_id: org.id, seats: 4 });
      expect(opened.statusCode, opened.body).toBe(201);
      const checkout = subscriptionCheckoutSchema.parse(opened.json());
      expect(checkout).toMatchObject({ sandbox: false, amount: 4 * perSeat });
      expect(sent.plans.at(-1)).toMatchObject({ amount: perSeat, interval: 'month' });
      expect(sent.subscriptions.at(-1)).toMatchObject({
        quantity: 4,
        notes: { organisation_id: org.id, subscription_id: checkout.subscription.id },
      });

      const verified = await s.api({
        method: 'POST',
        path: '/subscriptions/verify',
        token: org.admin.token,
        body: {
          razorpay_subscription_id: checkout.subscription_id,
          razorpay_payment_id: 'pay_Seat0001',
          razorpay_signature: 'good-signature',
        },
      });
      expect(verified.statusCode, verified.body).toBe(200);
      const licenseId = verified.json<{ license: { license_id: string } }>().license.license_id;
      expect(await licenseRow(s, licenseId)).toMatchObject({
        organisation_id: org.id,
        seats: 4,
        max_activations: 4 * business.max_activations,
        user_id: org.owner.id,
      });

      // Seats are not added mid-period on Razorpay yet: refused, nothing charged or changed.
      expectApiError(await buySeats(s, org.owner, org.id, 6), 409, 'seats_change_unavailable');
      expect((await licenseRow(s, licenseId)).seats).toBe(4);
    });
  },
  { appOverrides: () => ({ paymentProvider: provider }) },
);
