import type { License } from '../../../../shared/api/licenses';
import type { Paged } from '../../../../shared/api/paging';
import type {
  CheckoutFailure,
  Payment,
  PaymentConfig,
  PaymentOrder,
  PaymentStatus,
  PaymentVerification,
  VerifyPaymentRequest,
} from '../../../../shared/api/payments';
import { apiPaths, pathWith } from '../../../../shared/routes';
import type { HttpClient } from '../../lib/api-client';
import { toApiRequestError } from '../../lib/api-errors';
import { getServices, type Services } from '../../lib/services';
import type { Plan } from '../../../../shared/api/plans';

/** GET /licenses/current-plan (shared `currentPlanSchema`): the plan of the user's best active licence. */
export interface CurrentPlan {
  plan: Plan | null;
  license: License | null;
}

// The fallbacks of the buyer's payment calls, shown when the server gives no message.
export const paymentMessages = {
  fetchConfigFailed: 'Failed to fetch payment settings',
  createOrderFailed: 'Failed to start the checkout',
  sandboxCheckoutFailed: 'The sandbox checkout did not answer',
  verifyFailed: 'Failed to verify the payment',
  fetchStatusFailed: 'Failed to fetch payment status',
  fetchHistoryFailed: 'Failed to fetch payments',
  fetchCurrentPlanFailed: 'Failed to fetch current plan',
} as const;

/** Cache prefixes: licence writes invalidate `licenses:`, payment writes `payments:`. */
export const PAYMENTS_CACHE = 'payments:';
const CURRENT_PLAN_CACHE = 'licenses:current-plan-summary';

/** Answers are read as the shared schemas' types: the server writes every response through them. */
async function call<T>(fallback: string, run: (http: HttpClient) => Promise<T>, services: Services) {
  try {
    return await run(services.client.http);
  } catch (error) {
    throw toApiRequestError(error, fallback);
  }
}

/** GET /payments/config: which checkout to show (Razorpay, or the sandbox). Cached 60 s. */
export function fetchPaymentConfig(services: Services = getServices()): Promise<PaymentConfig> {
  return services.cache.get(`${PAYMENTS_CACHE}config`, () =>
    call(
      paymentMessages.fetchConfigFailed,
      async (http) => (await http.get<PaymentConfig>(apiPaths.payments.config)).data,
      services,
    ),
  );
}

/** GET /licenses/current-plan: the plan of the user's best active licence (`{ plan, license }`). */
export function fetchCurrentPlanSummary(services: Services = getServices()): Promise<CurrentPlan> {
  return services.cache.get(CURRENT_PLAN_CACHE, () =>
    call(
      paymentMessages.fetchCurrentPlanFailed,
      async (http) => (await http.get<CurrentPlan>(apiPaths.licenses.currentPlan)).data,
      services,
    ),
  );
}

/** POST /payments/razorpay/create-order with the plan only: the price always comes from the plan. */
export function createPaymentOrder(
  planId: string,
  services: Services = getServices(),
): Promise<PaymentOrder> {
  return call(
    paymentMessages.createOrderFailed,
    async (http) => (await http.post<PaymentOrder>(apiPaths.payments.createOrder, { plan_id: planId })).data,
    services,
  );
}

export type SandboxCheckoutResult =
  { outcome: 'paid'; checkout: VerifyPaymentRequest } | { outcome: 'declined'; failure: CheckoutFailure };

/**
 * POST /payments/sandbox/orders/{orderId}/complete: `pay` answers what Razorpay Checkout would
 * hand the page (to verify next), `decline` records a failed attempt and answers the failure.
 */
export function completeSandboxCheckout(
  orderId: string,
  outcome: 'pay' | 'decline',
  services: Services = getServices(),
): Promise<SandboxCheckoutResult> {
  return call(
    paymentMessages.sandboxCheckoutFailed,
    async (http) => {
      const answer = (
        await http.post<VerifyPaymentRequest | CheckoutFailure>(
          pathWith(apiPaths.payments.sandboxCheckout, { orderId }),
          { outcome },
        )
      ).data;
      services.cache.invalidate(PAYMENTS_CACHE);
      return 'error' in answer
        ? { outcome: 'declined' as const, failure: answer }
        : { outcome: 'paid' as const, checkout: answer };
    },
    services,
  );
}

/** POST /payments/razorpay/verify: grants (or extends) the plan's licence, exactly once. */
export async function verifyPayment(
  checkout: VerifyPaymentRequest,
  services: Services = getServices(),
): Promise<PaymentVerification> {
  const verification = await call(
    paymentMessages.verifyFailed,
    async (http) => (await http.post<PaymentVerification>(apiPaths.payments.verify, checkout)).data,
    services,
  );
  services.cache.invalidate(PAYMENTS_CACHE);
  services.cache.invalidate('licenses:');
  return verification;
}

/** GET /payments/status/{id}: one of the user's payments, by payment id or order id (never cached). */
export function fetchPaymentStatus(id: string, services: Services = getServices()): Promise<Payment> {
  return call(
    paymentMessages.fetchStatusFailed,
    async (http) => (await http.get<Payment>(pathWith(apiPaths.payments.status, { id }))).data,
    services,
  );
}

export interface PaymentHistoryQuery {
  page: number;
  perPage: number;
  status?: PaymentStatus;
}

/** GET /payments/history: the user's payments, newest first, paged (never cached: it is the live record). */
export function fetchPaymentHistory(
  query: PaymentHistoryQuery,
  services: Services = getServices(),
): Promise<Paged<Payment>> {
  const params: Record<string, string | number> = { page: query.page, perPage: query.perPage };
  if (query.status) params['status'] = query.status;
  return call(
    paymentMessages.fetchHistoryFailed,
    async (http) => (await http.get<Paged<Payment>>(apiPaths.payments.history, { params })).data,
    services,
  );
}
