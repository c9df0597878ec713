/**
 * How the customer paid, in the words the portal shows: "Card •••• 1111 (Visa)", or Razorpay's
 * method ("upi", "netbanking") when the payment was not made by card.
 */
export function describePaymentMethod(payment: Record<string, unknown>): string | undefined {
  const method = typeof payment['method'] === 'string' ? payment['method'] : undefined;
  const card = payment['card'] as { last4?: unknown; network?: unknown } | null | undefined;
  if (method === 'card' && card && typeof card.last4 === 'string')
    return `Card •••• ${card.last4}${typeof card.network === 'string' ? ` (${card.network})` : ''}`;
  return method;
}
