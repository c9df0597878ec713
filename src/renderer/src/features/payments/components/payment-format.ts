import type { Payment, PaymentStatus } from '../../../../../shared/api/payments';
import { formatPlanPrice } from '../../plans';

/** An amount in the currency's minor unit for people: "₹999", "$19.50". */
export const formatAmount = (minor: number, currency: string): string =>
  formatPlanPrice({ price_minor: minor, currency, billing_interval: 'lifetime' }).amount;

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

export const formatDateTime = (iso: string): string => dateTime.format(new Date(iso));
export const formatDate = (iso: string): string => dateOnly.format(new Date(iso));

/** What each payment status means to the buyer. */
export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, { label: string; color: string }> = {
  paid: { label: 'Paid', color: 'teal' },
  failed: { label: 'Failed', color: 'red' },
  created: { label: 'Not completed', color: 'gray' },
  expired: { label: 'Expired', color: 'orange' },
};

/** The reference support asks for: the provider's payment id once there is one, else the order id. */
export const paymentReference = (payment: Pick<Payment, 'payment_id' | 'order_id'>): string =>
  payment.payment_id ?? payment.order_id;
