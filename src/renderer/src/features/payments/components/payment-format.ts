import type { Payment } from '../../../../../shared/api/payments';

/** The reference support asks for: the provider's payment id once there is one, else the order id. */
export const paymentReference = (payment: Pick<Payment, 'payment_id' | 'order_id'>): string =>
  payment.payment_id ?? payment.order_id;
