import type { Subscription } from '../../../../shared/api/subscriptions';
import type { StatusTone } from '../../components/data/status-badge';
import { formatDate, formatDateTime } from '../../lib/format-date';
import { formatMoney } from '../../lib/format-money';
import { utc } from '../../../../shared/dates';
import { onCardTrial } from './card-trial';

type Interval = Subscription['plan']['billing_interval'];

/** "month" / "year": the words a price is per. */
export const INTERVAL_WORDS: Record<Interval, string> = { month: 'month', year: 'year' };
/** "Monthly" / "Yearly": how a subscription is billed. */
export const INTERVAL_ADJECTIVES: Record<Interval, string> = { month: 'Monthly', year: 'Yearly' };

/** "₹999 / month". */
export const formatRecurringPrice = (priceMinor: number, currency: string, interval: Interval): string =>
  `${formatMoney(priceMinor, currency)} / ${INTERVAL_WORDS[interval]}`;

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
        label: 'Awaiting first payment',
        tone: 'neutral',
        notice: {
          tone: 'info',
          title: 'Not started',
          message:
            'The first payment was not completed, so no license was issued. Subscribe again on the Purchase page.',
          canPayNow: false,
        },
      };
    case 'active':
      if (subscription.pause && !subscription.cancel_at_period_end) {
        const { starts_at: starts, resumes_at: resumes, periods } = subscription.pause;
        return {
          label: 'Pause planned',
          tone: 'info',
          notice: {
            tone: 'info',
            title: `Pauses on ${formatDate(starts)} for ${pausePeriods(periods, plan.billing_interval)}`,
            message: `Your license works until ${formatDate(starts)}, the end of the period you paid for. Nothing is charged while it is paused; on ${formatDate(resumes)} it resumes by itself and the next period${subscription.next_charge ? ` (${due})` : ''} is charged then.`,
            canPayNow: false,
          },
        };
      }
      if (!subscription.cancel_at_period_end) return { label: 'Active', tone: 'positive', notice: null };
      return {
        label: 'Ends at period end',
        tone: 'caution',
        notice: {
          tone: 'info',
          title: subscription.current_period_end
            ? `Canceled: ends on ${formatDate(subscription.current_period_end)}`
            : 'Canceled at the end of the period',
          message:
            'No further charge will be made. Your license stays valid until then and expires afterwards; resume before that date to keep it.',
          canPayNow: false,
        },
      };
    case 'past_due': {
      const by = subscription.grace_ends_at ? formatDateTime(subscription.grace_ends_at) : null;
      const attempts = subscription.failed_attempts;
      return {
        label: 'Past due',
        tone: 'caution',
        notice: {
          tone: 'warning',
          title: by ? `Payment failed: pay by ${by}` : 'Payment failed',
          message:
            `The charge of ${due} was declined${attempts > 1 ? ` (${attempts} attempts)` : ''}. ` +
            `Your license stays valid${by ? ` until ${by}` : ' for now'} while the payment is retried; after that it is suspended. ` +
            (subscription.sandbox
              ? 'Pay now, or update the payment method.'
              : 'Update the card: Razorpay charges it at once.'),
          canPayNow: subscription.sandbox,
        },
      };
    }
    case 'suspended':
      return {
        label: 'Suspended',
        tone: 'negative',
        notice: {
          tone: 'danger',
          title: 'License suspended: payment needed',
          message:
            `The payment of ${due} failed and the grace period ended` +
            `${subscription.grace_ends_at ? ` on ${formatDateTime(subscription.grace_ends_at)}` : ''}. ` +
            `Your license does not work until it is paid: ${subscription.sandbox ? 'pay now, or update the payment method' : 'update the card and Razorpay charges it at once'}. It is restored as soon as a payment goes through.`,
          canPayNow: subscription.sandbox,
        },
      };
    case 'paused':
      return {
        label: 'Paused',
        tone: 'info',
        notice: {
          tone: 'info',
          title: subscription.pause ? `Paused until ${formatDate(subscription.pause.resumes_at)}` : 'Paused',
          message:
            `Your license does not work while the subscription is paused, and nothing is charged. ` +
            (subscription.pause
              ? `On ${formatDate(subscription.pause.resumes_at)} it resumes by itself and the next period (${due}) is charged then. `
              : '') +
            'Resume now to start the next period, and its charge, today.',
          canPayNow: false,
        },
      };
    case 'cancelled':
      return {
        label: 'Ended',
        tone: 'neutral',
        notice: null,
      };
  }
}

/** "1 month", "3 months", "1 year": how long a pause of `periods` billing periods lasts. */
export const pausePeriods = (periods: number, interval: Interval): string =>
  `${periods} ${INTERVAL_WORDS[interval]}${periods === 1 ? '' : 's'}`;

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
const CREDIT_NOT_REFUNDABLE =
  'the payments it came from were refunded already or were taken by another payment provider';

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
  if (credit <= 0) return 'None';
  const money = (minor: number) => formatMoney(minor, plan.currency);
  if (subscription.status === 'cancelled')
    return `${money(credit)}, not refunded automatically (${CREDIT_NOT_REFUNDABLE}). Contact support to get it back.`;
  if (subscription.cancel_at_period_end)
    return `${money(credit)}, not refunded automatically (${CREDIT_NOT_REFUNDABLE}). It is taken off the next charge only if you resume${
      subscription.current_period_end ? ` before ${formatDate(subscription.current_period_end)}` : ''
    }; otherwise, contact support to get it back.`;
  const { refundMinor } = creditOnCancel(subscription);
  return `${money(credit)}, taken off the next charges (${
    refundMinor >= credit
      ? 'refunded if you cancel'
      : refundMinor > 0
        ? `${money(refundMinor)} of it refunded if you cancel`
        : 'not refundable if you cancel'
  })`;
}

/**
 * What the cancel dialog says of the kept credit before the customer confirms: what is refunded
 * (either way), and plainly what happens to what cannot be; null without credit.
 */
export function describeCreditOnCancel(subscription: Subscription): string | null {
  if (subscription.credit_minor <= 0) return null;
  const money = (minor: number) => formatMoney(minor, subscription.plan.currency);
  const { refundMinor, keptMinor } = creditOnCancel(subscription);
  const refunded =
    refundMinor > 0
      ? `${keptMinor > 0 ? `${money(refundMinor)} of your kept credit of ${money(subscription.credit_minor)}` : `Your kept credit of ${money(refundMinor)}`} is refunded to the payment method you paid with, with a credit note on the Billing page, whichever you choose.`
      : '';
  const kept =
    keptMinor > 0
      ? `${refundMinor > 0 ? `The other ${money(keptMinor)}` : `Your kept credit of ${money(keptMinor)}`} can’t be refunded automatically: ${CREDIT_NOT_REFUNDABLE}. Once the subscription ends, it is taken off no charge. Contact support before you cancel if you want it back.`
      : '';
  return [refunded, kept].filter(Boolean).join(' ');
}

const timeOnly = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

/** "2:32 PM": until when a quote holds. */
export const formatTime = (iso: string): string => timeOnly.format(new Date(iso));
