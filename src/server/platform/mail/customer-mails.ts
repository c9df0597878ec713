import { PRODUCT_NAME } from '../../../shared/constants.js';
import { UNKNOWN_BROWSER, UNKNOWN_DEVICE, deviceParts } from '../../../shared/device-names.js';
import { composeMail } from './compose.js';
import type { MailBlock } from './content.js';
import { formatDate, formatDateTime, formatMoney } from './formatting.js';
import { type MailI18n, mailI18n } from './mail-i18n.js';
import type { MailMessage } from './message.js';
import { unsubscribeReason } from './preferences.js';
import { mailKinds } from './templates.js';

/*
 * The customer's mail (issue 15, item 6). Each function takes what the mail says and returns
 * the mail with both parts made; the caller queues it in the transaction of the change that
 * causes it (`mailer.queue(trx, receiptMail({...}))`).
 *
 * - Amounts are integers in the currency's minor unit with the ISO currency code; moments are
 *   ISO-8601 strings or Dates, written on the UTC calendar.
 * - Links are whole URLs the caller makes (`portalLink(publicUrl, path)`), so the templates
 *   know nothing of routes.
 * - Optional mail (renewal reminder, expiring soon, new sign-in) takes `unsubscribeUrl`
 *   (`mailer.unsubscribeUrl(user.id, preference)`) and is queued only when identity's
 *   `wantsMail(user, preference)`; the rest is transactional: always sent, no unsubscribe link.
 * - Anything a person typed (a name, an administrator's reason, a browser's user agent) is
 *   plain text: the HTML part escapes it.
 */

/**
 * Who the mail is to: the address, the account's name when it has one, and its language preference
 * (`preferences.language`): the mail is written in it, English when absent or not spoken.
 */
export interface MailRecipient {
  to: string;
  name?: string | null;
  language?: string | null | undefined;
}

/** A price: `{ amountMinor: 49900, currency: 'INR' }` is ₹499.00. */
export interface MailAmount {
  amountMinor: number;
  currency: string;
}

export type Moment = Date | string;

export const greeting = (name: string | null | undefined, i18n: MailI18n = mailI18n()): MailBlock => ({
  paragraph: name?.trim()
    ? i18n._({ id: 'mail.greeting.named', message: 'Hello {name},' }, { name: name.trim() })
    : i18n._({ id: 'mail.greeting', message: 'Hello,' }),
});

/** Enough of a license key to tell licenses apart, never the whole key: a mail is not a safe place for it. */
export const keyEnding = (licenseKey: string, i18n: MailI18n = mailI18n()) =>
  i18n._({ id: 'mail.license.keyEnding', message: 'ending in {ending}' }, { ending: licenseKey.slice(-5) });

const money = ({ amountMinor, currency }: MailAmount, i18n: MailI18n = mailI18n()) =>
  formatMoney(amountMinor, currency, i18n.locale);

/** Seats bought for an organisation mid-period: the receipt says how many and for whom. */
export interface ReceiptSeats {
  organisationName: string;
  from: number;
  to: number;
}

const seatCount = (seats: number, i18n: MailI18n) =>
  i18n._(
    { id: 'mail.receipt.seatCount', message: '{seats, plural, one {# seat} other {# seats}}' },
    { seats },
  );

/**
 * Receipt of a successful charge, with its invoice attached (resolved when sent, see
 * attachments.ts). With `seats`, the charge is for seats added to an organisation's subscription.
 */
export const receiptMail = (
  input: MailRecipient &
    MailAmount & {
      planName: string;
      paidAt: Moment;
      invoiceId: string;
      invoiceNumber: string;
      /** The end of the period the charge pays for; absent for one-off purchases. */
      paidUntil?: Moment | null;
      /** Where the customer finds their invoices and subscription. */
      billingUrl: string;
      /** The invoice's lines and tax by kind, as printed on it, with amounts already written. */
      items?: Array<{ label: string; value: string }>;
      seats?: ReceiptSeats | undefined;
    },
): MailMessage => {
  const i18n = mailI18n(input.language);
  const { seats } = input;
  const added = seats ? seats.to - seats.from : 0;
  const amount = money(input, i18n);
  const plan = input.planName;
  const date = (moment: Moment) => formatDate(moment, i18n.locale);
  return composeMail({
    kind: mailKinds.receipt,
    to: input.to,
    i18n,
    subject: i18n._(
      { id: 'mail.receipt.subject', message: 'Your {product} receipt {invoiceNumber}' },
      { product: PRODUCT_NAME, invoiceNumber: input.invoiceNumber },
    ),
    content: {
      preview: seats
        ? i18n._(
            {
              id: 'mail.receipt.previewSeats',
              message: '{amount} paid for {seats} more for {organisation}. Your invoice is attached.',
            },
            { amount, seats: seatCount(added, i18n), organisation: seats.organisationName },
          )
        : i18n._(
            { id: 'mail.receipt.preview', message: '{amount} paid for {plan}. Your invoice is attached.' },
            { amount, plan },
          ),
      heading: i18n._({ id: 'mail.receipt.heading', message: 'Thank you for your payment' }),
      body: [
        greeting(input.name, i18n),
        {
          paragraph: seats
            ? i18n._(
                {
                  id: 'mail.receipt.bodySeats',
                  message:
                    'We received your payment for {seats} more on {organisation}’s {plan} subscription, charged for what is left of the current period. Your invoice is attached to this mail.',
                },
                { seats: seatCount(added, i18n), organisation: seats.organisationName, plan },
              )
            : i18n._(
                {
                  id: 'mail.receipt.body',
                  message: 'We received your payment for {plan}. Your invoice is attached to this mail.',
                },
                { plan },
              ),
        },
        ...(input.items && input.items.length > 0 ? [{ details: input.items }] : []),
        {
          details: [
            { label: i18n._({ id: 'mail.label.amountPaid', message: 'Amount paid' }), value: amount },
            { label: i18n._({ id: 'mail.label.plan', message: 'Plan' }), value: plan },
            ...(seats
              ? [
                  {
                    label: i18n._({ id: 'mail.label.organization', message: 'Organization' }),
                    value: seats.organisationName,
                  },
                  {
                    label: i18n._({ id: 'mail.label.seats', message: 'Seats' }),
                    value: i18n._(
                      { id: 'mail.receipt.seatsChange', message: '{from} → {to} ({added} added)' },
                      { from: seats.from, to: seats.to, added },
                    ),
                  },
                ]
              : []),
            { label: i18n._({ id: 'mail.label.paidOn', message: 'Paid on' }), value: date(input.paidAt) },
            ...(input.paidUntil
              ? [
                  {
                    label: i18n._({ id: 'mail.label.paidUntil', message: 'Paid until' }),
                    value: date(input.paidUntil),
                  },
                ]
              : []),
            { label: i18n._({ id: 'mail.label.invoice', message: 'Invoice' }), value: input.invoiceNumber },
          ],
        },
      ],
      action: {
        label: i18n._({ id: 'mail.action.viewBilling', message: 'View billing' }),
        url: input.billingUrl,
      },
    },
    attachments: [
      {
        filename: `invoice-${input.invoiceNumber.replace(/[^A-Za-z0-9._-]+/g, '-')}.pdf`,
        contentType: 'application/pdf',
        ref: { kind: 'invoice_pdf', id: input.invoiceId },
      },
    ],
  });
};

/** Optional (`billing`): a subscription renews soon (7 days before a yearly renewal by default). */
export const renewalReminderMail = (
  input: MailRecipient &
    MailAmount & {
      planName: string;
      renewsAt: Moment;
      subscriptionUrl: string;
      unsubscribeUrl: string;
    },
): MailMessage => {
  const i18n = mailI18n(input.language);
  const renewsOn = formatDate(input.renewsAt, i18n.locale);
  const amount = money(input, i18n);
  const plan = input.planName;
  return composeMail({
    kind: mailKinds.renewalReminder,
    to: input.to,
    i18n,
    subject: i18n._(
      { id: 'mail.renewalReminder.subject', message: 'Your {plan} subscription renews on {renewsOn}' },
      { plan, renewsOn },
    ),
    content: {
      preview: i18n._(
        { id: 'mail.renewalReminder.preview', message: '{amount} will be charged on {renewsOn}.' },
        { amount, renewsOn },
      ),
      heading: i18n._({ id: 'mail.renewalReminder.heading', message: 'Your subscription renews soon' }),
      body: [
        greeting(input.name, i18n),
        {
          paragraph: i18n._(
            {
              id: 'mail.renewalReminder.body',
              message:
                'Your {plan} subscription renews on {renewsOn}. Nothing needs doing: we charge your saved payment method.',
            },
            { plan, renewsOn },
          ),
        },
        {
          details: [
            { label: i18n._({ id: 'mail.label.amount', message: 'Amount' }), value: amount },
            { label: i18n._({ id: 'mail.label.renewsOn', message: 'Renews on' }), value: renewsOn },
          ],
        },
        {
          paragraph: i18n._({
            id: 'mail.renewalReminder.change',
            message: 'To change plan, update your payment method or cancel, open your subscription.',
          }),
        },
      ],
      action: {
        label: i18n._({ id: 'mail.action.manageSubscription', message: 'Manage subscription' }),
        url: input.subscriptionUrl,
      },
    },
    unsubscribe: { url: input.unsubscribeUrl, reason: unsubscribeReason(i18n, 'billing') },
  });
};

/** A renewal charge failed: what happens next, and the link that fixes it. */
export const paymentFailedMail = (
  input: MailRecipient &
    MailAmount & {
      planName: string;
      /** The provider's reason, when it gave one ("card declined"). */
      reason?: string | null;
      /** When the charge is tried again, if it is. */
      nextRetryAt?: Moment | null;
      /** The license stays valid until then; after that it is suspended. */
      graceEndsAt: Moment;
      /** The subscription page, where the payment method is updated. */
      subscriptionUrl: string;
    },
): MailMessage => {
  const i18n = mailI18n(input.language);
  const plan = input.planName;
  const amount = money(input, i18n);
  const retry = input.nextRetryAt
    ? `${i18n._(
        { id: 'mail.paymentFailed.retry', message: 'We will try again on {date}.' },
        { date: formatDate(input.nextRetryAt, i18n.locale) },
      )} `
    : '';
  return composeMail({
    kind: mailKinds.paymentFailed,
    to: input.to,
    i18n,
    subject: i18n._(
      { id: 'mail.paymentFailed.subject', message: 'Payment failed for your {plan} subscription' },
      { plan },
    ),
    content: {
      preview: i18n._(
        {
          id: 'mail.paymentFailed.preview',
          message: 'Update your payment method before {date} to keep your license.',
        },
        { date: formatDate(input.graceEndsAt, i18n.locale) },
      ),
      heading: i18n._({ id: 'mail.paymentFailed.heading', message: 'Your payment did not go through' }),
      body: [
        greeting(input.name, i18n),
        {
          paragraph: input.reason
            ? i18n._(
                {
                  id: 'mail.paymentFailed.bodyReason',
                  message: 'We could not charge {amount} for your {plan} subscription: {reason}',
                },
                { amount, plan, reason: input.reason },
              )
            : i18n._(
                {
                  id: 'mail.paymentFailed.body',
                  message: 'We could not charge {amount} for your {plan} subscription.',
                },
                { amount, plan },
              ),
        },
        {
          paragraph: `${i18n._(
            { id: 'mail.paymentFailed.graceUntil', message: 'Your license keeps working until {date}.' },
            { date: formatDateTime(input.graceEndsAt, i18n.locale) },
          )} ${retry}${i18n._({
            id: 'mail.paymentFailed.fixNow',
            message: 'To fix it now, update your payment method on your subscription page.',
          })}`,
        },
      ],
      action: {
        label: i18n._({ id: 'mail.action.updatePaymentMethod', message: 'Update payment method' }),
        url: input.subscriptionUrl,
      },
      after: [
        {
          note: i18n._({
            id: 'mail.paymentFailed.suspension',
            message:
              'If the payment still fails when the grace period ends, the license is suspended until it is paid.',
          }),
        },
      ],
    },
  });
};

/** The grace period after a failed payment ends soon. */
export const gracePeriodEndingMail = (
  input: MailRecipient &
    MailAmount & {
      planName: string;
      graceEndsAt: Moment;
      subscriptionUrl: string;
    },
): MailMessage => {
  const i18n = mailI18n(input.language);
  const plan = input.planName;
  const amount = money(input, i18n);
  const date = formatDate(input.graceEndsAt, i18n.locale);
  return composeMail({
    kind: mailKinds.gracePeriodEnding,
    to: input.to,
    i18n,
    subject: i18n._(
      { id: 'mail.gracePeriodEnding.subject', message: 'Your {plan} license will be suspended on {date}' },
      { plan, date },
    ),
    content: {
      preview: i18n._(
        {
          id: 'mail.gracePeriodEnding.preview',
          message: 'Pay {amount} before {date} to keep using {product}.',
        },
        { amount, date, product: PRODUCT_NAME },
      ),
      heading: i18n._({ id: 'mail.gracePeriodEnding.heading', message: 'Your grace period ends soon' }),
      body: [
        greeting(input.name, i18n),
        {
          paragraph: i18n._(
            {
              id: 'mail.gracePeriodEnding.body',
              message:
                'The payment of {amount} for your {plan} subscription is still due. On {moment} your license will be suspended and {product} will stop working on your machines.',
            },
            { amount, plan, moment: formatDateTime(input.graceEndsAt, i18n.locale), product: PRODUCT_NAME },
          ),
        },
        {
          paragraph: i18n._({
            id: 'mail.gracePeriodEnding.keepRunning',
            message: 'Update your payment method to keep it running.',
          }),
        },
      ],
      action: {
        label: i18n._({ id: 'mail.action.updatePaymentMethod', message: 'Update payment method' }),
        url: input.subscriptionUrl,
      },
    },
  });
};

/** The license was suspended (an unpaid subscription); a payment restores it. */
export const licenseSuspendedMail = (
  input: MailRecipient & {
    planName: string;
    licenseKey: string;
    /** Why, in a sentence ("The payment for your subscription is overdue."). */
    reason: string;
    /** Where the customer restores it (the subscription page). */
    fixUrl: string;
  },
): MailMessage => {
  const i18n = mailI18n(input.language);
  const plan = input.planName;
  const heading = i18n._({ id: 'mail.licenseSuspended.heading', message: 'Your license is suspended' });
  return composeMail({
    kind: mailKinds.licenseSuspended,
    to: input.to,
    i18n,
    subject: i18n._(
      { id: 'mail.licenseSuspended.subject', message: 'Your {plan} license is suspended' },
      { plan },
    ),
    content: {
      preview: i18n._({
        id: 'mail.licenseSuspended.preview',
        message: 'Your license is suspended until the payment is made.',
      }),
      heading,
      body: [
        greeting(input.name, i18n),
        {
          paragraph: i18n._(
            {
              id: 'mail.licenseSuspended.body',
              message: 'Your {plan} license ({key}) is suspended: {product} no longer runs with it.',
            },
            { plan, key: keyEnding(input.licenseKey, i18n), product: PRODUCT_NAME },
          ),
        },
        { details: [{ label: i18n._({ id: 'mail.label.reason', message: 'Reason' }), value: input.reason }] },
        {
          paragraph: i18n._({
            id: 'mail.licenseSuspended.kept',
            message:
              'Your license, machines and settings are kept: it works again as soon as the payment is made.',
          }),
        },
      ],
      action: {
        label: i18n._({ id: 'mail.licenseSuspended.action', message: 'Restore my license' }),
        url: input.fixUrl,
      },
    },
  });
};

/** An administrator revoked the license, with the reason they gave. */
export const licenseRevokedMail = (
  input: MailRecipient & {
    planName: string;
    licenseKey: string;
    reason: string;
    revokedAt: Moment;
    /** Where to ask about it. */
    supportUrl: string;
  },
): MailMessage => {
  const i18n = mailI18n(input.language);
  const plan = input.planName;
  const reasonLabel = i18n._({ id: 'mail.label.reason', message: 'Reason' });
  return composeMail({
    kind: mailKinds.licenseRevoked,
    to: input.to,
    i18n,
    subject: i18n._(
      { id: 'mail.licenseRevoked.subject', message: 'Your {plan} license was revoked' },
      { plan },
    ),
    content: {
      preview: `${reasonLabel}: ${input.reason}`,
      heading: i18n._({ id: 'mail.licenseRevoked.heading', message: 'Your license was revoked' }),
      body: [
        greeting(input.name, i18n),
        {
          paragraph: i18n._(
            {
              id: 'mail.licenseRevoked.body',
              message:
                'An administrator revoked your {plan} license ({key}) on {moment}. {product} no longer runs with it.',
            },
            {
              plan,
              key: keyEnding(input.licenseKey, i18n),
              moment: formatDateTime(input.revokedAt, i18n.locale),
              product: PRODUCT_NAME,
            },
          ),
        },
        { details: [{ label: reasonLabel, value: input.reason }] },
        {
          paragraph: i18n._({
            id: 'mail.licenseRevoked.mistake',
            message: 'If you think this is a mistake, contact support and quote the reason above.',
          }),
        },
      ],
      action: {
        label: i18n._({ id: 'mail.action.contactSupport', message: 'Contact support' }),
        url: input.supportUrl,
      },
    },
  });
};

/** The license reached its end date (a one-off plan, or a subscription that was cancelled). */
export const licenseExpiredMail = (
  input: MailRecipient & {
    planName: string;
    licenseKey: string;
    expiredAt: Moment;
    /** Where to buy or renew. */
    renewUrl: string;
  },
): MailMessage => {
  const i18n = mailI18n(input.language);
  const plan = input.planName;
  return composeMail({
    kind: mailKinds.licenseExpired,
    to: input.to,
    i18n,
    subject: i18n._(
      { id: 'mail.licenseExpired.subject', message: 'Your {plan} license has expired' },
      { plan },
    ),
    content: {
      preview: i18n._(
        { id: 'mail.licenseExpired.preview', message: 'It expired on {date}. Renew to keep using {plan}.' },
        { date: formatDate(input.expiredAt, i18n.locale), plan },
      ),
      heading: i18n._({ id: 'mail.licenseExpired.heading', message: 'Your license has expired' }),
      body: [
        greeting(input.name, i18n),
        {
          paragraph: i18n._(
            {
              id: 'mail.licenseExpired.body',
              message:
                'Your {plan} license ({key}) expired on {moment}. Its features are no longer available on your machines.',
            },
            {
              plan,
              key: keyEnding(input.licenseKey, i18n),
              moment: formatDateTime(input.expiredAt, i18n.locale),
            },
          ),
        },
        {
          paragraph: i18n._({
            id: 'mail.licenseExpired.renew',
            message: 'Renew it or choose another plan to continue.',
          }),
        },
      ],
      action: { label: i18n._({ id: 'mail.action.renew', message: 'Renew' }), url: input.renewUrl },
    },
  });
};

/** A subscription was cancelled: at the end of the paid period, or at once. */
export const subscriptionCancelledMail = (
  input: MailRecipient & {
    planName: string;
    /** When the license stops: the end of the paid period, or now for an immediate cancellation. */
    endsAt: Moment;
    immediately: boolean;
    /** Ended now: the unused part of the paid period, refunded. */
    refund?: MailAmount | undefined;
    /** The credit kept from a move to a cheaper plan, refunded. */
    creditRefund?: MailAmount | undefined;
    /** The part of that credit that could not be refunded: taken off no charge once it ends. */
    creditKept?: MailAmount | undefined;
    /** A card trial canceled before its first charge: nothing was charged, and the trial runs to this end. */
    trialEndsAt?: Moment | undefined;
    subscriptionUrl: string;
  },
): MailMessage => {
  const i18n = mailI18n(input.language);
  const plan = input.planName;
  const endsOn = formatDate(input.endsAt, i18n.locale);
  const endsAt = formatDateTime(input.endsAt, i18n.locale);
  const { refund, creditRefund, creditKept, trialEndsAt } = input;
  return composeMail({
    kind: mailKinds.subscriptionCancelled,
    to: input.to,
    i18n,
    subject: i18n._(
      { id: 'mail.subscriptionCancelled.subject', message: 'Your {plan} subscription is canceled' },
      { plan },
    ),
    content: {
      preview: input.immediately
        ? i18n._({ id: 'mail.subscriptionCancelled.previewEnded', message: 'Your subscription ended today.' })
        : i18n._(
            {
              id: 'mail.subscriptionCancelled.preview',
              message: 'Your license stays active until {date}.',
            },
            { date: endsOn },
          ),
      heading: i18n._({ id: 'mail.subscriptionCancelled.heading', message: 'Your subscription is canceled' }),
      body: [
        greeting(input.name, i18n),
        trialEndsAt
          ? {
              paragraph: i18n._(
                {
                  id: 'mail.subscriptionCancelled.bodyTrial',
                  message:
                    'Your {plan} subscription was canceled during its free trial, so your card is never charged. The trial runs until {moment}.',
                },
                { plan, moment: formatDateTime(trialEndsAt, i18n.locale) },
              ),
            }
          : input.immediately
            ? {
                paragraph: i18n._(
                  {
                    id: 'mail.subscriptionCancelled.bodyEnded',
                    message:
                      'Your {plan} subscription was canceled and ended on {moment}. You will not be charged again.',
                  },
                  { plan, moment: endsAt },
                ),
              }
            : {
                paragraph: i18n._(
                  {
                    id: 'mail.subscriptionCancelled.body',
                    message:
                      'Your {plan} subscription was canceled. You will not be charged again, and your license stays active until {moment}.',
                  },
                  { plan, moment: endsAt },
                ),
              },
        ...(refund
          ? [
              {
                paragraph: i18n._(
                  {
                    id: 'mail.subscriptionCancelled.refund',
                    message:
                      'The unused part of the period you paid for, {amount}, is refunded to the payment method you paid with; the credit note is on the Billing page.',
                  },
                  { amount: money(refund, i18n) },
                ),
              },
            ]
          : []),
        ...(creditRefund
          ? [
              {
                paragraph: i18n._(
                  {
                    id: 'mail.subscriptionCancelled.creditRefund',
                    message:
                      'The credit kept from your earlier move to a cheaper plan, {amount}, is refunded to the payment method you paid with; the credit note is on the Billing page.',
                  },
                  { amount: money(creditRefund, i18n) },
                ),
              },
            ]
          : []),
        ...(creditKept
          ? [
              {
                paragraph: input.immediately
                  ? i18n._(
                      {
                        id: 'mail.subscriptionCancelled.creditKeptEnded',
                        message:
                          '{amount} of credit kept from an earlier plan change could not be refunded automatically: the payments it came from were refunded already or taken by another payment provider. Contact support if you want it back.',
                      },
                      { amount: money(creditKept, i18n) },
                    )
                  : i18n._(
                      {
                        id: 'mail.subscriptionCancelled.creditKept',
                        message:
                          '{amount} of credit kept from an earlier plan change could not be refunded automatically: the payments it came from were refunded already or taken by another payment provider. It is taken off your next charge only if you resume the subscription before {date}; otherwise, contact support if you want it back.',
                      },
                      { amount: money(creditKept, i18n), date: endsOn },
                    ),
              },
            ]
          : []),
        input.immediately
          ? {
              paragraph: i18n._({
                id: 'mail.subscriptionCancelled.subscribeAgain',
                message: 'You can subscribe again at any time.',
              }),
            }
          : {
              paragraph: i18n._({
                id: 'mail.subscriptionCancelled.changedMind',
                message: 'Changed your mind? You can resume the subscription until then.',
              }),
            },
      ],
      action: {
        label: input.immediately
          ? i18n._({ id: 'mail.action.viewPlans', message: 'View plans' })
          : i18n._({ id: 'mail.action.resumeSubscription', message: 'Resume subscription' }),
        url: input.subscriptionUrl,
      },
    },
  });
};

/** A cancellation at period end was taken back: the subscription renews as before. */
export const subscriptionResumedMail = (
  input: MailRecipient &
    MailAmount & {
      planName: string;
      /** The next charge, of `amountMinor`. */
      renewsAt: Moment;
      subscriptionUrl: string;
    },
): MailMessage => {
  const i18n = mailI18n(input.language);
  const plan = input.planName;
  const amount = money(input, i18n);
  const renewsOn = formatDate(input.renewsAt, i18n.locale);
  return composeMail({
    kind: mailKinds.subscriptionResumed,
    to: input.to,
    i18n,
    subject: i18n._(
      { id: 'mail.subscriptionResumed.subject', message: 'Your {plan} subscription is resumed' },
      { plan },
    ),
    content: {
      preview: i18n._(
        { id: 'mail.subscriptionResumed.preview', message: 'It renews on {renewsOn}: {amount}.' },
        { renewsOn, amount },
      ),
      heading: i18n._({ id: 'mail.subscriptionResumed.heading', message: 'Your subscription is resumed' }),
      body: [
        greeting(input.name, i18n),
        {
          paragraph: i18n._(
            {
              id: 'mail.subscriptionResumed.body',
              message:
                'Your {plan} subscription is no longer canceled: your license keeps working, and the subscription renews on {renewsOn} with your saved payment method.',
            },
            { plan, renewsOn },
          ),
        },
        {
          details: [
            { label: i18n._({ id: 'mail.label.nextCharge', message: 'Next charge' }), value: amount },
            { label: i18n._({ id: 'mail.label.renewsOn', message: 'Renews on' }), value: renewsOn },
          ],
        },
        {
          paragraph: i18n._({
            id: 'mail.subscriptionResumed.cancelAgain',
            message: 'If you did not mean to resume it, you can cancel it again on your subscription page.',
          }),
        },
      ],
      action: {
        label: i18n._({ id: 'mail.action.manageSubscription', message: 'Manage subscription' }),
        url: input.subscriptionUrl,
      },
    },
  });
};

/** A pause was asked for: the license works to the paid period's end, then pauses until it resumes. */
export const subscriptionPausedMail = (
  input: MailRecipient & {
    planName: string;
    periods: number;
    /** The end of the paid period: the license works until then. */
    startsAt: Moment;
    resumesAt: Moment;
    subscriptionUrl: string;
  },
): MailMessage => {
  const i18n = mailI18n(input.language);
  const plan = input.planName;
  const resumesOn = formatDate(input.resumesAt, i18n.locale);
  const worksUntil = formatDate(input.startsAt, i18n.locale);
  return composeMail({
    kind: mailKinds.subscriptionPaused,
    to: input.to,
    i18n,
    subject: i18n._(
      { id: 'mail.subscriptionPaused.subject', message: 'Your {plan} subscription is paused until {date}' },
      { plan, date: resumesOn },
    ),
    content: {
      preview: i18n._(
        { id: 'mail.subscriptionPaused.preview', message: 'Nothing is charged until {date}.' },
        { date: resumesOn },
      ),
      heading: i18n._({ id: 'mail.subscriptionPaused.heading', message: 'Your subscription is paused' }),
      body: [
        greeting(input.name, i18n),
        {
          paragraph: i18n._(
            {
              id: 'mail.subscriptionPaused.body',
              message:
                'Your {plan} subscription pauses for {periods, plural, one {one billing period} other {# billing periods}}. Your license keeps working until {date}, the end of the period you paid for; then it is paused, and the app says when it resumes.',
            },
            { plan, periods: input.periods, date: worksUntil },
          ),
        },
        {
          details: [
            {
              label: i18n._({ id: 'mail.label.licenseWorksUntil', message: 'License works until' }),
              value: worksUntil,
            },
            {
              label: i18n._({ id: 'mail.label.resumesOn', message: 'Resumes and next charge on' }),
              value: resumesOn,
            },
          ],
        },
        {
          paragraph: i18n._({
            id: 'mail.subscriptionPaused.resumeSooner',
            message:
              'Nothing is charged while it is paused. You can resume it sooner on your subscription page: the next period then starts and is charged at once.',
          }),
        },
      ],
      action: {
        label: i18n._({ id: 'mail.action.manageSubscription', message: 'Manage subscription' }),
        url: input.subscriptionUrl,
      },
    },
  });
};

/** A pause ended: resumed on time or early (the next period charged), or a planned pause withdrawn. */
export const subscriptionPauseEndedMail = (
  input: MailRecipient & {
    planName: string;
    /** The pause had not started: the paid period runs on and renews as before. */
    withdrawn: boolean;
    /** The next renewal, or the end of the period that started now. */
    renewsAt: Moment | null;
    subscriptionUrl: string;
  },
): MailMessage => {
  const i18n = mailI18n(input.language);
  const plan = input.planName;
  return composeMail({
    kind: mailKinds.subscriptionPauseEnded,
    to: input.to,
    i18n,
    subject: i18n._(
      { id: 'mail.subscriptionPauseEnded.subject', message: 'Your {plan} subscription is no longer paused' },
      { plan },
    ),
    content: {
      preview: input.withdrawn
        ? i18n._({
            id: 'mail.subscriptionPauseEnded.previewWithdrawn',
            message: 'The planned pause is withdrawn.',
          })
        : i18n._({ id: 'mail.subscriptionPauseEnded.preview', message: 'Your license works again.' }),
      heading: input.withdrawn
        ? i18n._({ id: 'mail.subscriptionPauseEnded.headingWithdrawn', message: 'Your pause is withdrawn' })
        : i18n._({ id: 'mail.subscriptionResumed.heading', message: 'Your subscription is resumed' }),
      body: [
        greeting(input.name, i18n),
        {
          paragraph: input.withdrawn
            ? i18n._(
                {
                  id: 'mail.subscriptionPauseEnded.bodyWithdrawn',
                  message:
                    'The pause planned for your {plan} subscription is withdrawn: your license keeps working and the subscription renews as before.',
                },
                { plan },
              )
            : i18n._(
                {
                  id: 'mail.subscriptionPauseEnded.body',
                  message:
                    'Your {plan} subscription is resumed: a new billing period started, charged with your saved payment method, and your license works again.',
                },
                { plan },
              ),
        },
        ...(input.renewsAt
          ? [
              {
                details: [
                  {
                    label: i18n._({ id: 'mail.label.renewsOn', message: 'Renews on' }),
                    value: formatDate(input.renewsAt, i18n.locale),
                  },
                ],
              },
            ]
          : []),
      ],
      action: {
        label: i18n._({ id: 'mail.action.manageSubscription', message: 'Manage subscription' }),
        url: input.subscriptionUrl,
      },
    },
  });
};

/**
 * A second subscription to a plan the customer already subscribes to was paid (two checkouts open
 * at once): it was not started, and its payment is refunded in full.
 */
export const duplicateSubscriptionRefundedMail = (
  input: MailRecipient &
    MailAmount & {
      planName: string;
      paidAt: Moment;
      subscriptionUrl: string;
    },
): MailMessage => {
  const i18n = mailI18n(input.language);
  const plan = input.planName;
  const amount = money(input, i18n);
  return composeMail({
    kind: mailKinds.duplicateSubscriptionRefunded,
    to: input.to,
    i18n,
    subject: i18n._(
      { id: 'mail.duplicateSubscription.subject', message: 'Your second {plan} payment is refunded' },
      { plan },
    ),
    content: {
      preview: i18n._(
        {
          id: 'mail.duplicateSubscription.preview',
          message: 'You already subscribe to {plan}; {amount} is refunded in full.',
        },
        { plan, amount },
      ),
      heading: i18n._({
        id: 'mail.duplicateSubscription.heading',
        message: 'Your second payment is refunded',
      }),
      body: [
        greeting(input.name, i18n),
        {
          paragraph: i18n._(
            {
              id: 'mail.duplicateSubscription.body',
              message:
                'On {moment} a second subscription to {plan} was paid, most likely in another tab or by a repeated click. You already subscribe to {plan}, so the second one was not started and will not be charged again.',
            },
            { moment: formatDateTime(input.paidAt, i18n.locale), plan },
          ),
        },
        {
          paragraph: i18n._(
            {
              id: 'mail.duplicateSubscription.refunded',
              message:
                'Its payment of {amount} is refunded in full to the payment method you paid with; the credit note is on the Billing page. Your subscription continues unchanged.',
            },
            { amount },
          ),
        },
      ],
      action: {
        label: i18n._({ id: 'mail.action.viewSubscriptions', message: 'View subscriptions' }),
        url: input.subscriptionUrl,
      },
    },
  });
};

/**
 * Receipt of an administrator's refund (whole or part of a payment), with the credit note that
 * corrects the invoice attached (resolved when sent, like the receipt's invoice). `amountMinor` is
 * this refund; `paidMinor` the payment it is part of and `refundedMinor` all refunded of it so far.
 */
export const refundReceiptMail = (
  input: MailRecipient &
    MailAmount & {
      paidMinor: number;
      refundedMinor: number;
      planName: string;
      paidAt: Moment;
      refundedAt: Moment;
      invoiceNumber: string;
      creditNoteId: string;
      creditNoteNumber: string;
      billingUrl: string;
    },
): MailMessage => {
  const i18n = mailI18n(input.language);
  const plan = input.planName;
  const amount = money(input, i18n);
  const paid = money({ amountMinor: input.paidMinor, currency: input.currency }, i18n);
  const whole = input.refundedMinor >= input.paidMinor;
  const date = (moment: Moment) => formatDate(moment, i18n.locale);
  return composeMail({
    kind: mailKinds.refundReceipt,
    to: input.to,
    i18n,
    subject: i18n._(
      { id: 'mail.refundReceipt.subject', message: 'Your {product} refund {creditNoteNumber}' },
      { product: PRODUCT_NAME, creditNoteNumber: input.creditNoteNumber },
    ),
    content: {
      preview: i18n._(
        {
          id: 'mail.refundReceipt.preview',
          message: '{amount} of your {paid} payment for {plan} is refunded. Your credit note is attached.',
        },
        { amount, paid, plan },
      ),
      heading: i18n._({ id: 'mail.refundReceipt.heading', message: 'Your refund is on its way' }),
      body: [
        greeting(input.name, i18n),
        {
          paragraph: i18n._(
            {
              id: 'mail.refundReceipt.body',
              message:
                'We refunded {amount} of your {paid} payment for {plan} to the payment method you paid with. Your bank may take 5 to 7 working days to show it. The credit note that corrects invoice {invoiceNumber} is attached to this mail.',
            },
            { amount, paid, plan, invoiceNumber: input.invoiceNumber },
          ),
        },
        {
          details: [
            { label: i18n._({ id: 'mail.label.refundedNow', message: 'Refunded now' }), value: amount },
            {
              label: i18n._({ id: 'mail.label.payment', message: 'Payment' }),
              value: whole
                ? i18n._({ id: 'mail.refundReceipt.whole', message: '{paid}, refunded in full' }, { paid })
                : i18n._(
                    { id: 'mail.refundReceipt.part', message: '{paid}, {refunded} refunded so far' },
                    {
                      paid,
                      refunded: money({ amountMinor: input.refundedMinor, currency: input.currency }, i18n),
                    },
                  ),
            },
            { label: i18n._({ id: 'mail.label.plan', message: 'Plan' }), value: plan },
            { label: i18n._({ id: 'mail.label.paidOn', message: 'Paid on' }), value: date(input.paidAt) },
            {
              label: i18n._({ id: 'mail.label.refundedOn', message: 'Refunded on' }),
              value: date(input.refundedAt),
            },
            { label: i18n._({ id: 'mail.label.invoice', message: 'Invoice' }), value: input.invoiceNumber },
            {
              label: i18n._({ id: 'mail.label.creditNote', message: 'Credit note' }),
              value: input.creditNoteNumber,
            },
          ],
        },
      ],
      action: {
        label: i18n._({ id: 'mail.action.viewBilling', message: 'View billing' }),
        url: input.billingUrl,
      },
    },
    attachments: [
      {
        filename: `credit-note-${input.creditNoteNumber.replace(/[^A-Za-z0-9._-]+/g, '-')}.pdf`,
        contentType: 'application/pdf',
        ref: { kind: 'invoice_pdf', id: input.creditNoteId },
      },
    ],
  });
};

/** A device named in English by the server ("Chrome on Linux") in the mail's language. */
function deviceIn(device: string, i18n: MailI18n): string {
  const { browser, system } = deviceParts(device);
  const named =
    browser === UNKNOWN_BROWSER
      ? i18n._({ id: 'mail.device.unknownBrowser', message: 'Unknown browser' })
      : browser === UNKNOWN_DEVICE
        ? i18n._({ id: 'mail.device.unknownDevice', message: 'Unknown device' })
        : browser;
  return system
    ? i18n._({ id: 'mail.device.on', message: '{browser} on {system}' }, { browser: named, system })
    : named;
}

/** Optional (`security_alerts`): the account signed in from a device or network not seen lately. */
export const newSignInMail = (
  input: MailRecipient & {
    /** "Chrome on Linux". */
    device: string;
    /** The client's address as the server saw it. */
    ipAddress: string;
    signedInAt: Moment;
    /** Where to change the password if it was not them. */
    resetPasswordUrl: string;
    unsubscribeUrl: string;
  },
): MailMessage => {
  const i18n = mailI18n(input.language);
  const when = formatDateTime(input.signedInAt, i18n.locale);
  const device = deviceIn(input.device, i18n);
  return composeMail({
    kind: mailKinds.newSignIn,
    to: input.to,
    i18n,
    subject: i18n._(
      { id: 'mail.newSignIn.subject', message: 'New sign-in to your {product} account' },
      { product: PRODUCT_NAME },
    ),
    content: {
      preview: `${device}, ${when}`,
      heading: i18n._({ id: 'mail.newSignIn.heading', message: 'New sign-in to your account' }),
      body: [
        greeting(input.name, i18n),
        {
          paragraph: i18n._(
            {
              id: 'mail.newSignIn.body',
              message:
                'Your {product} account was just signed in to from a device or network it has not used lately.',
            },
            { product: PRODUCT_NAME },
          ),
        },
        {
          details: [
            { label: i18n._({ id: 'mail.label.device', message: 'Device' }), value: device },
            { label: i18n._({ id: 'mail.label.address', message: 'Address' }), value: input.ipAddress },
            { label: i18n._({ id: 'mail.label.when', message: 'When' }), value: when },
          ],
        },
        {
          paragraph: i18n._({
            id: 'mail.newSignIn.notYou',
            message:
              'If this was you, there is nothing to do. If it was not, change your password now: every device is then signed out.',
          }),
        },
      ],
      action: {
        label: i18n._({ id: 'mail.newSignIn.action', message: 'Change my password' }),
        url: input.resetPasswordUrl,
      },
    },
    unsubscribe: { url: input.unsubscribeUrl, reason: unsubscribeReason(i18n, 'security_alerts') },
  });
};

/** Optional (`billing`): a one-off license expires soon. */
export const licenseExpiringSoonMail = (
  input: MailRecipient & {
    planName: string;
    licenseKey: string;
    expiresAt: Moment;
    renewUrl: string;
    unsubscribeUrl: string;
  },
): MailMessage => {
  const i18n = mailI18n(input.language);
  const plan = input.planName;
  const expiresOn = formatDate(input.expiresAt, i18n.locale);
  return composeMail({
    kind: mailKinds.licenseExpiringSoon,
    to: input.to,
    i18n,
    subject: i18n._(
      { id: 'mail.licenseExpiringSoon.subject', message: 'Your {plan} license expires on {expiresOn}' },
      { plan, expiresOn },
    ),
    content: {
      preview: i18n._(
        { id: 'mail.licenseExpiringSoon.preview', message: 'Renew before {expiresOn} to keep using {plan}.' },
        { plan, expiresOn },
      ),
      heading: i18n._({ id: 'mail.licenseExpiringSoon.heading', message: 'Your license expires soon' }),
      body: [
        greeting(input.name, i18n),
        {
          paragraph: i18n._(
            {
              id: 'mail.licenseExpiringSoon.body',
              message:
                'Your {plan} license ({key}) expires on {expiresAt}. Renew it before then to keep its features without a break.',
            },
            {
              plan,
              key: keyEnding(input.licenseKey, i18n),
              expiresAt: formatDateTime(input.expiresAt, i18n.locale),
            },
          ),
        },
      ],
      action: { label: i18n._({ id: 'mail.action.renew', message: 'Renew' }), url: input.renewUrl },
    },
    unsubscribe: { url: input.unsubscribeUrl, reason: unsubscribeReason(i18n, 'billing') },
  });
};
