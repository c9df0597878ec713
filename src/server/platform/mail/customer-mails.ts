import { PRODUCT_NAME } from '../../../shared/constants.js';
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
): MailMessage =>
  composeMail({
    kind: mailKinds.subscriptionCancelled,
    to: input.to,
    subject: `Your ${input.planName} subscription is canceled`,
    content: {
      preview: input.immediately
        ? 'Your subscription ended today.'
        : `Your license stays active until ${formatDate(input.endsAt)}.`,
      heading: 'Your subscription is canceled',
      body: [
        greeting(input.name),
        input.trialEndsAt
          ? {
              paragraph: `Your ${input.planName} subscription was canceled during its free trial, so your card is never charged. The trial runs until ${formatDateTime(input.trialEndsAt)}.`,
            }
          : input.immediately
            ? {
                paragraph: `Your ${input.planName} subscription was canceled and ended on ${formatDateTime(input.endsAt)}. You will not be charged again.`,
              }
            : {
                paragraph: `Your ${input.planName} subscription was canceled. You will not be charged again, and your license stays active until ${formatDateTime(
                  input.endsAt,
                )}.`,
              },
        ...(input.refund
          ? [
              {
                paragraph: `The unused part of the period you paid for, ${money(input.refund)}, is refunded to the payment method you paid with; the credit note is on the Billing page.`,
              },
            ]
          : []),
        ...(input.creditRefund
          ? [
              {
                paragraph: `The credit kept from your earlier move to a cheaper plan, ${money(input.creditRefund)}, is refunded to the payment method you paid with; the credit note is on the Billing page.`,
              },
            ]
          : []),
        ...(input.creditKept
          ? [
              {
                paragraph: input.immediately
                  ? `${money(input.creditKept)} of credit kept from an earlier plan change could not be refunded automatically: the payments it came from were refunded already or taken by another payment provider. Contact support if you want it back.`
                  : `${money(input.creditKept)} of credit kept from an earlier plan change could not be refunded automatically: the payments it came from were refunded already or taken by another payment provider. It is taken off your next charge only if you resume the subscription before ${formatDate(input.endsAt)}; otherwise, contact support if you want it back.`,
              },
            ]
          : []),
        input.immediately
          ? { paragraph: 'You can subscribe again at any time.' }
          : { paragraph: 'Changed your mind? You can resume the subscription until then.' },
      ],
      action: {
        label: input.immediately ? 'View plans' : 'Resume subscription',
        url: input.subscriptionUrl,
      },
    },
  });

/** A cancellation at period end was taken back: the subscription renews as before. */
export const subscriptionResumedMail = (
  input: MailRecipient &
    MailAmount & {
      planName: string;
      /** The next charge, of `amountMinor`. */
      renewsAt: Moment;
      subscriptionUrl: string;
    },
): MailMessage =>
  composeMail({
    kind: mailKinds.subscriptionResumed,
    to: input.to,
    subject: `Your ${input.planName} subscription is resumed`,
    content: {
      preview: `It renews on ${formatDate(input.renewsAt)}: ${money(input)}.`,
      heading: 'Your subscription is resumed',
      body: [
        greeting(input.name),
        {
          paragraph: `Your ${input.planName} subscription is no longer canceled: your license keeps working, and the subscription renews on ${formatDate(
            input.renewsAt,
          )} with your saved payment method.`,
        },
        {
          details: [
            { label: 'Next charge', value: money(input) },
            { label: 'Renews on', value: formatDate(input.renewsAt) },
          ],
        },
        { paragraph: 'If you did not mean to resume it, you can cancel it again on your subscription page.' },
      ],
      action: { label: 'Manage subscription', url: input.subscriptionUrl },
    },
  });

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
): MailMessage =>
  composeMail({
    kind: mailKinds.subscriptionPaused,
    to: input.to,
    subject: `Your ${input.planName} subscription is paused until ${formatDate(input.resumesAt)}`,
    content: {
      preview: `Nothing is charged until ${formatDate(input.resumesAt)}.`,
      heading: 'Your subscription is paused',
      body: [
        greeting(input.name),
        {
          paragraph: `Your ${input.planName} subscription pauses for ${input.periods === 1 ? 'one billing period' : `${input.periods} billing periods`}. Your license keeps working until ${formatDate(
            input.startsAt,
          )}, the end of the period you paid for; then it is paused, and the app says when it resumes.`,
        },
        {
          details: [
            { label: 'License works until', value: formatDate(input.startsAt) },
            { label: 'Resumes and next charge on', value: formatDate(input.resumesAt) },
          ],
        },
        {
          paragraph:
            'Nothing is charged while it is paused. You can resume it sooner on your subscription page: the next period then starts and is charged at once.',
        },
      ],
      action: { label: 'Manage subscription', url: input.subscriptionUrl },
    },
  });

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
): MailMessage =>
  composeMail({
    kind: mailKinds.subscriptionPauseEnded,
    to: input.to,
    subject: `Your ${input.planName} subscription is no longer paused`,
    content: {
      preview: input.withdrawn ? 'The planned pause is withdrawn.' : 'Your license works again.',
      heading: input.withdrawn ? 'Your pause is withdrawn' : 'Your subscription is resumed',
      body: [
        greeting(input.name),
        {
          paragraph: input.withdrawn
            ? `The pause planned for your ${input.planName} subscription is withdrawn: your license keeps working and the subscription renews as before.`
            : `Your ${input.planName} subscription is resumed: a new billing period started, charged with your saved payment method, and your license works again.`,
        },
        ...(input.renewsAt ? [{ details: [{ label: 'Renews on', value: formatDate(input.renewsAt) }] }] : []),
      ],
      action: { label: 'Manage subscription', url: input.subscriptionUrl },
    },
  });

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
): MailMessage =>
  composeMail({
    kind: mailKinds.duplicateSubscriptionRefunded,
    to: input.to,
    subject: `Your second ${input.planName} payment is refunded`,
    content: {
      preview: `You already subscribe to ${input.planName}; ${money(input)} is refunded in full.`,
      heading: 'Your second payment is refunded',
      body: [
        greeting(input.name),
        {
          paragraph: `On ${formatDateTime(input.paidAt)} a second subscription to ${input.planName} was paid, most likely in another tab or by a repeated click. You already subscribe to ${input.planName}, so the second one was not started and will not be charged again.`,
        },
        {
          paragraph: `Its payment of ${money(input)} is refunded in full to the payment method you paid with; the credit note is on the Billing page. Your subscription continues unchanged.`,
        },
      ],
      action: { label: 'View subscriptions', url: input.subscriptionUrl },
    },
  });

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
  const paid = money({ amountMinor: input.paidMinor, currency: input.currency });
  const whole = input.refundedMinor >= input.paidMinor;
  return composeMail({
    kind: mailKinds.refundReceipt,
    to: input.to,
    subject: `Your ${PRODUCT_NAME} refund ${input.creditNoteNumber}`,
    content: {
      preview: `${money(input)} of your ${paid} payment for ${input.planName} is refunded. Your credit note is attached.`,
      heading: 'Your refund is on its way',
      body: [
        greeting(input.name),
        {
          paragraph: `We refunded ${money(input)} of your ${paid} payment for ${input.planName} to the payment method you paid with. Your bank may take 5 to 7 working days to show it. The credit note that corrects invoice ${input.invoiceNumber} is attached to this mail.`,
        },
        {
          details: [
            { label: 'Refunded now', value: money(input) },
            {
              label: 'Payment',
              value: whole
                ? `${paid}, refunded in full`
                : `${paid}, ${money({ amountMinor: input.refundedMinor, currency: input.currency })} refunded so far`,
            },
            { label: 'Plan', value: input.planName },
            { label: 'Paid on', value: formatDate(input.paidAt) },
            { label: 'Refunded on', value: formatDate(input.refundedAt) },
            { label: 'Invoice', value: input.invoiceNumber },
            { label: 'Credit note', value: input.creditNoteNumber },
          ],
        },
      ],
      action: { label: 'View billing', url: input.billingUrl },
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
  return composeMail({
    kind: mailKinds.newSignIn,
    to: input.to,
    i18n,
    subject: i18n._(
      { id: 'mail.newSignIn.subject', message: 'New sign-in to your {product} account' },
      { product: PRODUCT_NAME },
    ),
    content: {
      preview: `${input.device}, ${when}`,
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
            { label: i18n._({ id: 'mail.label.device', message: 'Device' }), value: input.device },
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
