import type { DbOrTransaction } from '../../platform/db/database.js';
import type { PaymentRow } from '../../platform/db/tables.js';

// What an invoice is made from, read as issue.ts and charge-summary.ts need it: the charge, the
// subscription and organisation it is billed to, and the coupon redeemed on it.

export const findChargedPayment = (db: DbOrTransaction, id: string): Promise<PaymentRow | undefined> =>
  db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirst();

/** What a payment charged, and whether it is paid. */
export const findPaymentAmount = (db: DbOrTransaction, id: string) =>
  db
    .selectFrom('payments')
    .select(['amount_minor', 'currency', 'status'])
    .where('id', '=', id)
    .executeTakeFirst();

/** The organisation's name and its saved billing details (JSON), which its invoices are made out to. */
export const findOrganisationBilling = (db: DbOrTransaction, organisationId: string) =>
  db
    .selectFrom('organisations')
    .select(['name', 'billing_details'])
    .where('id', '=', organisationId)
    .executeTakeFirst();

/** A subscription's seats and coupon, with its organisation's name and billing details if it has one. */
export const findSubscriptionBilling = (db: DbOrTransaction, subscriptionId: string) =>
  db
    .selectFrom('subscriptions')
    .leftJoin('organisations', 'organisations.id', 'subscriptions.organisation_id')
    .select([
      'subscriptions.seats',
      'subscriptions.coupon_id',
      'subscriptions.organisation_id',
      'organisations.name as organisation_name',
      'organisations.billing_details',
    ])
    .where('subscriptions.id', '=', subscriptionId)
    .executeTakeFirst();

/** The coupon redeemed on a one-off purchase, and the discount it gave. */
export const findCouponRedemption = (db: DbOrTransaction, paymentId: string) =>
  db
    .selectFrom('coupon_redemptions')
    .select(['coupon_id', 'discount_minor'])
    .where('payment_id', '=', paymentId)
    .executeTakeFirst();
