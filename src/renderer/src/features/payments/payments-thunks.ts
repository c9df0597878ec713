import type { VerifyPaymentRequest } from '../../../../shared/api/payments';
import { serverMessage } from '../../lib/api-errors';
import { createAppThunk } from '../../lib/create-app-thunk';
import { fetchLicenses, setCurrentLicense } from '../license/license-slice';
import { completeSandboxCheckout, createPaymentOrder, paymentMessages, verifyPayment } from './payments-api';

// Buying is the user acting: the `user/` prefix keeps the session's activity time fresh.

/** Opens an order for a paid plan (the server takes the price from the plan). */
export const startCheckout = createAppThunk(
  'user/payments/startCheckout',
  async (planId: string, { extra, rejectWithValue }) => {
    try {
      return await createPaymentOrder(planId, extra);
    } catch (error) {
      return rejectWithValue(serverMessage(error, paymentMessages.createOrderFailed));
    }
  },
);

/** The sandbox checkout's Pay or Decline on an order. */
export const answerSandboxCheckout = createAppThunk(
  'user/payments/sandboxCheckout',
  async (
    { orderId, outcome }: { orderId: string; outcome: 'pay' | 'decline' },
    { extra, rejectWithValue },
  ) => {
    try {
      return await completeSandboxCheckout(orderId, outcome, extra);
    } catch (error) {
      return rejectWithValue(serverMessage(error, paymentMessages.sandboxCheckoutFailed));
    }
  },
);

/**
 * Verifies a checkout and shows its licence at once: the new licence becomes the current one in
 * the licence slice and the list is fetched again, so /licenses has it without a reload.
 */
export const completePurchase = createAppThunk(
  'user/payments/completePurchase',
  async (checkout: VerifyPaymentRequest, { extra, dispatch, rejectWithValue }) => {
    let verification;
    try {
      verification = await verifyPayment(checkout, extra);
    } catch (error) {
      return rejectWithValue(serverMessage(error, paymentMessages.verifyFailed));
    }
    dispatch(setCurrentLicense(verification.license));
    // The licence exists whether or not this read succeeds; the licences page fetches again anyway.
    await dispatch(fetchLicenses());
    return verification;
  },
);
