import { msg, plural, t } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { Subscription } from '../../../../shared/api/subscriptions';
import type { StatusTone } from '../../components/data/status-badge';
import { formatDate, formatDateTime } from '../../lib/format-date';
import { formatMoney } from '../../lib/format-money';
import { formattingLocale } from '../../lib/i18n/portal-i18n';
import { utc } from '../../../../shared/dates';
import { onCardTrial } from './card-trial';

type Interval = Subscription['plan']['billing_interval'];

/** "Monthly" / "Yearly": how a subscription is billed (render with the shown language's `i18n._`). */
export const INTERVAL_ADJECTIVES: Record<Interval, MessageDescriptor> = {
  month: msg`Monthly`,
  year: msg`Yearly`,
};

/** "₹999 / month", in the shown language. */
export function formatRecurringPrice(priceMinor: number, currency: string, interval: Interval): string {
  const price = formatMoney(priceMinor, currency);
  return interval === 'year' ? t`${price} / year` : t`${price} / month`;
}

/** What the customer must know about a subscription's state, and what to do about it. */
export interface StatusNotice {
  tone: 'danger' | 'warning' | 'info';
  title: string;
  message: string;
  /** Paying the outstanding charge now would fix it. */
  canPayNow: boolean;
}

export interface StatusDisplay {
  label: string;
  tone: StatusTone;
  notice: StatusNotice | null;
}

/**
 * A subscription's status for people: the badge's words and tone, and, when something needs the
 * customer (a failed payment, a suspension, a cancellation under way), what happens by when.
 */
export function describeSubscriptionStatus(subscription: Subscription): StatusDisplay {
  const { status, plan } = subscription;
  const due = subscription.next_charge
    ? formatMoney(subscription.next_charge.amount_minor, subscription.next_charge.currency)
    : formatMoney(plan.price_minor, plan.currency);
  switch (status) {
    case 'pending':
      return {
        label: t`Awaiting first payment`,
        tone: 'neutral',
        notice: {
          tone: 'info',
          title: t`Not started`,
          message: t`The first payment was not completed, so no license was issued. Subscribe again on the Purchase page.`,
          canPayNow: false,
        },
      };
    case 'active':
      if (subscription.pause && !subscription.cancel_at_period_end) {
        const start = formatDate(subscription.pause.starts_at);
        const resume = formatDate(subscription.pause.resumes_at);
        const length = pausePeriods(subscription.pause.periods, plan.billing_interval);
        return {
          label: t`Pause planned`,
          tone: 'info',
          notice: {
            tone: 'info',
            title: t`Pauses on ${start} for ${length}`,
            message: subscription.next_charge
              ? t`Your license works until ${start}, the end of the period you paid for. Nothing is charged while it is paused; on ${resume} it resumes by itself and the next period (${due}) is charged then.`
              : t`Your license works until ${start}, the end of the period you paid for. Nothing is charged while it is paused; on ${resume} it resumes by itself and the next period is charged then.`,
            canPayNow: false,
          },
        };
      }
      if (!subscription.cancel_at_period_end) return { label: t`Active`, tone: 'positive', notice: null };
      return {
        label: t`Ends at period end`,
        tone: 'caution',
        notice: {
          tone: 'info',
          title: subscription.current_period_end
            ? cancelledTitle(formatDate(subscription.current_period_end))
            : t`Canceled at the end of the period`,
          message: t`No further charge will be made. Your license stays valid until then and expires afterwards; resume before that date to keep it.`,
          canPayNow: false,
        },
      };
    case 'past_due': {
      const by = subscription.grace_ends_at ? formatDateTime(subscription.grace_ends_at) : null;
      const attempts = subscription.failed_attempts;
      return {
        label: t`Past due`,
        tone: 'caution',
        notice: {
          tone: 'warning',
          title: by ? t`Payment failed: pay by ${by}` : t`Payment failed`,
          message: [
            attempts > 1
              ? t`The charge of ${due} was declined (${attempts} attempts).`
              : t`The charge of ${due} was declined.`,
            by
              ? t`Your license stays valid until ${by} while the payment is retried; after that it is suspended.`
              : t`Your license stays valid for now while the payment is retried; after that it is suspended.`,
            subscription.sandbox
              ? t`Pay now, or update the payment method.`
              : t`Update the card: Razorpay charges it at once.`,
          ].join(' '),
          canPayNow: subscription.sandbox,
        },
      };
    }
    case 'suspended':
      return {
        label: t`Suspended`,
        tone: 'negative',
        notice: {
          tone: 'danger',
          title: t`License suspended: payment needed`,
          message: [
            suspendedFailure(due, subscription.grace_ends_at),
            subscription.sandbox
              ? t`Your license does not work until it is paid: pay now, or update the payment method. It is restored as soon as a payment goes through.`
              : t`Your license does not work until it is paid: update the card and Razorpay charges it at once. It is restored as soon as a payment goes through.`,
          ].join(' '),
          canPayNow: subscription.sandbox,
        },
      };
    case 'paused':
      return {
        label: t`Paused`,
        tone: 'info',
        notice: {
          tone: 'info',
          title: subscription.pause ? pausedUntil(formatDate(subscription.pause.resumes_at)) : t`Paused`,
          message: [
            t`Your license does not work while the subscription is paused, and nothing is charged.`,
            subscription.pause ? pausedResumes(formatDate(subscription.pause.resumes_at), due) : null,
            t`Resume now to start the next period, and its charge, today.`,
          ]
            .filter(Boolean)
            .join(' '),
          canPayNow: false,
        },
      };
    case 'cancelled':
      return {
        label: t`Ended`,
        tone: 'neutral',
        notice: null,
      };
  }
}

const cancelledTitle = (end: string) => t`Canceled: ends on ${end}`;
const pausedUntil = (resume: string) => t`Paused until ${resume}`;
const pausedResumes = (resume: string, due: string) =>
  t`On ${resume} it resumes by itself and the next period (${due}) is charged then.`;

function suspendedFailure(due: string, graceEndsAt: string | null): string {
  if (!graceEndsAt) return t`The payment of ${due} failed and the grace period ended.`;
  const ended = formatDateTime(graceEndsAt);
  return t`The payment of ${due} failed and the grace period ended on ${ended}.`;
}

/** "1 month", "3 months", "1 year": how long a pause of `periods` billing periods lasts. */
export const pausePeriods = (periods: number, interval: Interval): string =>
  interval === 'year'
    ? plural(periods, { one: '# year', other: '# years' })
    : plural(periods, { one: '# month', other: '# months' });

/**
 * When a pause of `periods` asked for now would end: that many billing periods after the paid
 * period's end, on the calendar the server counts them by (a month after 31 January is 28 February).
 */
export const pauseResumesAt = (subscription: Subscription, periods: number): string | null =>
  subscription.current_period_end
    ? utc(subscription.current_period_end).add(periods, subscription.plan.billing_interval).toISOString()
    : null;

/**
 * Whether the server would take a pause now: active and paid up (not on its card trial), not
 * cancelled at the period's end, and no pause planned already. It refuses the others with a 409.
 */
export const canPause = (subscription: Subscription): boolean =>
  subscription.status === 'active' &&
  !subscription.cancel_at_period_end &&
  subscription.pause === null &&
  !onCardTrial(subscription) &&
  subscription.current_period_end !== null;

/** Whether the subscription can still change (plan, payment method, cancel). */
export const isLive = (subscription: Pick<Subscription, 'status'>): boolean =>
  subscription.status === 'active' ||
  subscription.status === 'past_due' ||
  subscription.status === 'suspended' ||
  subscription.status === 'paused';

/** Why credit cannot be refunded automatically, in the customer's words. */
const CREDIT_NOT_REFUNDABLE = msg`the payments it came from were refunded already or were taken by another payment provider`;

/** What cancelling does with the credit kept from a move to a cheaper plan: refunded, and kept back. */
export function creditOnCancel(subscription: Subscription): { refundMinor: number; keptMinor: number } {
  const refundMinor = Math.min(subscription.cancel_credit_refund_minor, subscription.credit_minor);
  return { refundMinor, keptMinor: Math.max(subscription.credit_minor - refundMinor, 0) };
}

/**
 * The card's "Kept credit": the balance, and what becomes of it in the subscription's state: taken
 * off the next charges while it renews (and what cancelling would refund), and once it ends or will
 * end, that what is left could not be refunded.
 */
export function describeCredit(subscription: Subscription): string {
  const { credit_minor: credit, plan } = subscription;
  if (credit <= 0) return t`None`;
  const money = (minor: number) => formatMoney(minor, plan.currency);
  const amount = money(credit);
  const reason = t(CREDIT_NOT_REFUNDABLE);
  if (subscription.status === 'cancelled')
    return t`${amount}, not refunded automatically (${reason}). Contact support to get it back.`;
  if (subscription.cancel_at_period_end) {
    if (!subscription.current_period_end)
      return t`${amount}, not refunded automatically (${reason}). It is taken off the next charge only if you resume; otherwise, contact support to get it back.`;
    const end = formatDate(subscription.current_period_end);
    return t`${amount}, not refunded automatically (${reason}). It is taken off the next charge only if you resume before ${end}; otherwise, contact support to get it back.`;
  }
  const { refundMinor } = creditOnCancel(subscription);
  const refund = money(refundMinor);
  return refundMinor >= credit
    ? t`${amount}, taken off the next charges (refunded if you cancel)`
    : refundMinor > 0
      ? t`${amount}, taken off the next charges (${refund} of it refunded if you cancel)`
      : t`${amount}, taken off the next charges (not refundable if you cancel)`;
}

/**
 * What the cancel dialog says of the kept credit before the customer confirms: what is refunded
 * (either way), and plainly what happens to what cannot be; null without credit.
 */
export function describeCreditOnCancel(subscription: Subscription): string | null {
  if (subscription.credit_minor <= 0) return null;
  const money = (minor: number) => formatMoney(minor, subscription.plan.currency);
  const { refundMinor, keptMinor } = creditOnCancel(subscription);
  const refund = money(refundMinor);
  const kept = money(keptMinor);
  const total = money(subscription.credit_minor);
  const reason = t(CREDIT_NOT_REFUNDABLE);
  const refunded =
    refundMinor <= 0
      ? ''
      : keptMinor > 0
        ? t`${refund} of your kept credit of ${total} is refunded to the payment method you paid with, with a credit note on the Billing page, whichever you choose.`
        : t`Your kept credit of ${refund} is refunded to the payment method you paid with, with a credit note on the Billing page, whichever you choose.`;
  const lost =
    keptMinor <= 0
      ? ''
      : refundMinor > 0
        ? t`The other ${kept} can’t be refunded automatically: ${reason}. Once the subscription ends, it is taken off no charge. Contact support before you cancel if you want it back.`
        : t`Your kept credit of ${kept} can’t be refunded automatically: ${reason}. Once the subscription ends, it is taken off no charge. Contact support before you cancel if you want it back.`;
  return [refunded, lost].filter(Boolean).join(' ');
}

/** "2:32 PM": until when a quote holds, written as the language shown writes times. */
export const formatTime = (iso: string): string =>
  new Intl.DateTimeFormat(formattingLocale(), { timeStyle: 'short' }).format(new Date(iso));

/**
 * A card on file for people: the payment sandbox's own cards ("Sandbox card •••• 4242", as the
 * server names them) in the shown language; a real card's description is data and stays as sent.
 */
export function paymentMethodText(method: string): string {
  const sandbox = /^Sandbox card (•••• \d{4})( \(declines every charge\))?$/.exec(method);
  if (!sandbox) return method;
  const digits = sandbox[1] ?? '';
  return sandbox[2] ? t`Sandbox card ${digits} (declines every charge)` : t`Sandbox card ${digits}`;
}
