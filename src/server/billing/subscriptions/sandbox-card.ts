import { randomToken } from '../../platform/crypto.js';

// The sandbox's card, as the customer sees it and as its charges are recorded.

export const SANDBOX_DECLINE_REASON = 'The sandbox card declined the charge (no money moved)';
export const SANDBOX_PAYMENT_METHOD = 'Sandbox card •••• 4242';
export const SANDBOX_DECLINING_METHOD = 'Sandbox card •••• 0002 (declines every charge)';

export const sandboxPaymentId = () => `pay_sandbox_${randomToken(12)}`;
