import type Razorpay from 'razorpay';
import { describePaymentMethod } from './payment-method.js';
import { PaymentProviderError, type SubscriptionGateway } from './provider.js';
import { describeSdkError } from './razorpay-sdk.js';

/** Add-ons asked for per page when looking one up (Razorpay's most). */
const ADDON_PAGE = 100;

/** Razorpay's word for our billing intervals. */
const PERIODS = { month: 'monthly', year: 'yearly' } as const;

/** Razorpay Subscriptions through the official SDK: plans, subscriptions, their cancellation and cards. */
export function createRazorpaySubscriptions(client: Razorpay): SubscriptionGateway {
  async function call<T>(what: string, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw new PaymentProviderError(`Razorpay refused to ${what}`, describeSdkError(error));
    }
  }

  return {
    async createPlan({ name, description, amount, currency, interval, notes }) {
      const plan = await call('create the plan', () =>
        client.plans.create({
          period: PERIODS[interval],
          interval: 1,
          item: { name, description, amount, currency },
          notes,
        }),
      );
      if (
        typeof plan.id !== 'string' ||
        Number(plan.item.amount) !== amount ||
        plan.item.currency !== currency
      )
        throw new PaymentProviderError('Razorpay answered an unexpected plan', plan);
      return plan.id;
    },
    async createSubscription({ providerPlanId, totalCount, notes, upfront, quantity, trialEndsAt }) {
      const subscription = await call('create the subscription', () =>
        client.subscriptions.create({
          plan_id: providerPlanId,
          total_count: totalCount,
          customer_notify: 1,
          notes,
          ...(quantity !== undefined ? { quantity } : {}),
          // Razorpay charges an add-on with a future start at authorisation: the first period, alone.
          ...(upfront
            ? {
                start_at: upfront.startAt,
                addons: [
                  { item: { name: upfront.name, amount: upfront.amount, currency: upfront.currency } },
                ],
              }
            : {}),
          // A card trial: Checkout only authorises the card (no add-on), and Razorpay's first
          // charge is at the trial's end.
          ...(trialEndsAt !== undefined ? { start_at: trialEndsAt } : {}),
        }),
      );
      if (typeof subscription.id !== 'string' || subscription.plan_id !== providerPlanId)
        throw new PaymentProviderError('Razorpay answered an unexpected subscription', subscription);
      return subscription.id;
    },
    async addCharge(subscriptionId, { name, description, amount, currency }) {
      const addon = await call('add the charge to the subscription', () =>
        client.subscriptions.createAddon(subscriptionId, {
          item: { name, description, amount, currency },
          quantity: 1,
        }),
      );
      if (typeof addon.id !== 'string')
        throw new PaymentProviderError('Razorpay answered an unexpected add-on', addon);
      return addon.id;
    },
    async findCharge(subscriptionId, reference, since) {
      // Add-ons carry no notes: the reference is in the item's description. Newest first, a page at a time.
      for (let skip = 0; ; skip += ADDON_PAGE) {
        const page = await call('list the add-ons', () =>
          client.addons.all({ from: since, count: ADDON_PAGE, skip }),
        );
        if (!Array.isArray(page.items))
          throw new PaymentProviderError('Razorpay answered an unexpected list of add-ons', page);
        const found = page.items.find(
          (addon) =>
            addon.subscription_id === subscriptionId &&
            typeof addon.item?.description === 'string' &&
            addon.item.description.includes(reference),
        );
        if (found) return found.id;
        if (page.items.length < ADDON_PAGE) return undefined;
      }
    },
    async cancelSubscription(subscriptionId, atPeriodEnd) {
      await call('cancel the subscription', () =>
        client.subscriptions.cancel(subscriptionId, atPeriodEnd ? 1 : 0),
      );
    },
    async pauseSubscription(subscriptionId) {
      await call('pause the subscription', () =>
        client.subscriptions.pause(subscriptionId, { pause_at: 'now' }),
      );
    },
    async resumeSubscription(subscriptionId) {
      await call('resume the subscription', () =>
        client.subscriptions.resume(subscriptionId, { resume_at: 'now' }),
      );
    },
    async statusOf(subscriptionId) {
      const subscription = await call('show the subscription', () =>
        client.subscriptions.fetch(subscriptionId),
      );
      if (subscription.id !== subscriptionId || typeof subscription.status !== 'string')
        throw new PaymentProviderError('Razorpay answered another subscription', subscription);
      return subscription.status;
    },
    async paymentMethodOf(paymentId) {
      const payment = await call('show the payment', () => client.payments.fetch(paymentId));
      if (payment.id !== paymentId)
        throw new PaymentProviderError('Razorpay answered another payment', payment);
      return describePaymentMethod(payment as unknown as Record<string, unknown>);
    },
  };
}
