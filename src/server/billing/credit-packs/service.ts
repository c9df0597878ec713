import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { PaymentOrder } from '../../../shared/api/payments.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { UserRow } from '../../platform/db/tables.js';
import { conflict } from '../../platform/http-error.js';
import { packDescription, packOffer } from '../../licensing/index.js';
import type { InvoiceSettings } from '../invoices/settings.js';
import { accountPricingTax } from '../invoices/buyer-treatment.js';
import { chargeForPrice } from '../invoices/tax.js';
import { type PaymentProvider, PaymentProviderError, providerUnavailable } from '../payments/provider.js';
import { insertPayment } from '../payments/repository.js';
import { insertPackOrder } from './orders-repository.js';

export interface CreditPackOrdersDeps {
  db: Db;
  clock: Clock;
  provider: PaymentProvider;
  /** The currencies the payment account takes (PAYMENT_CURRENCIES). */
  currencies: readonly string[];
  invoicing: InvoiceSettings;
  log: FastifyBaseLogger;
}

/**
 * Orders for credit packs: a one-off checkout like a plan's, whose price is the feature's pack
 * times the packs asked for (the client never names an amount). The order's payment and what it
 * buys are written together; the buyer pays through the same checkout and verify as a plan, and
 * settling the payment writes the pack (billing's settlement).
 */
export function createCreditPackOrders({
  db,
  clock,
  provider,
  currencies,
  invoicing,
  log,
}: CreditPackOrdersDeps) {
  return {
    async createOrder(
      user: UserRow,
      licenseId: string,
      body: { feature: string; quantity: number },
    ): Promise<PaymentOrder> {
      const offer = await packOffer(db, clock, user, licenseId, body.feature);
      if (!currencies.includes(offer.currency))
        throw conflict(
          'currency_not_supported',
          `${offer.feature.name} credits are priced in ${offer.currency}, but payments here are taken in ${currencies.join(', ')}`,
        );
      const id = randomUUID();
      // Each pack's price, plus the tax when prices are configured as exclusive of it.
      const tax = await accountPricingTax(db, invoicing, user.id);
      const amount = chargeForPrice(offer.pack.price_minor, tax) * body.quantity;
      let order;
      try {
        order = await provider.createOrder({
          amount,
          currency: offer.currency,
          receipt: id,
          notes: { payment_id: id, license_id: offer.license.id, feature_id: offer.feature.feature_id },
        });
      } catch (error) {
        if (!(error instanceof PaymentProviderError)) throw error;
        throw providerUnavailable(error, log, 'open the order');
      }
      const now = clock.now().toISOString();
      await db.transaction().execute(async (trx) => {
        await insertPayment(trx, {
          id,
          user_id: user.id,
          plan_id: offer.license.plan_id,
          provider: provider.name,
          provider_order_id: order.orderId,
          provider_payment_id: null,
          amount_minor: amount,
          currency: offer.currency,
          status: 'created',
          license_id: offer.license.id,
          failure_reason: null,
          created_at: now,
          updated_at: now,
          paid_at: null,
        });
        await insertPackOrder(trx, {
          payment_id: id,
          license_id: offer.license.id,
          feature_id: offer.feature.feature_id,
          quantity: body.quantity,
          units: offer.pack.units,
          price_minor: offer.pack.price_minor,
          description: packDescription(offer.feature, offer.pack.units),
        });
      });
      return {
        id,
        order_id: order.orderId,
        amount,
        currency: offer.currency,
        key_id: provider.keyId,
        provider: provider.name,
        sandbox: provider.sandbox,
        plan: { id: offer.license.plan_id, code: offer.feature.key, name: offer.planName },
        prefill: { email: user.email, ...(user.full_name ? { name: user.full_name } : {}) },
      };
    },
  };
}

export type CreditPackOrders = ReturnType<typeof createCreditPackOrders>;
