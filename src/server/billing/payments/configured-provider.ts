import type { Config } from '../../platform/config.js';
import { loadOrCreateSecret } from '../../platform/secrets.js';
import type { PaymentProvider } from './provider.js';
import { createRazorpayProvider } from './razorpay-provider.js';
import { createSandboxProvider, type SandboxPaymentProvider } from './sandbox-provider.js';

/** The provider PAYMENT_PROVIDER selects; the sandbox secret file is only created when the sandbox is used. */
export function createConfiguredProvider(
  config: Pick<Config, 'payments' | 'dataDir'>,
): PaymentProvider | SandboxPaymentProvider {
  const { payments } = config;
  if (payments.provider === 'razorpay') {
    // loadConfig refuses PAYMENT_PROVIDER=razorpay without keys; this guards other callers.
    if (!payments.razorpay)
      throw new Error('PAYMENT_PROVIDER is razorpay but no Razorpay keys are configured');
    return createRazorpayProvider(payments.razorpay);
  }
  return createSandboxProvider(
    payments.sandboxSecret ?? loadOrCreateSecret(config.dataDir, 'payment-sandbox-secret'),
  );
}
