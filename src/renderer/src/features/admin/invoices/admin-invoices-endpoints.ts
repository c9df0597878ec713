import type { InvoiceList, PaymentRefunds, RefundRequest } from '../../../../../shared/api/invoices';
import { pathWith } from '../../../../../shared/routes';
import { adminApiPaths, paymentsApiPaths } from '../../../../../shared/api-paths';
import { api } from '../../../lib/api';
import { recordEndpointArea } from '../../../lib/api-actions';

// The fallbacks of the administrators' billing calls, shown when the server gives no message.
export const adminBillingMessages = {
  fetchInvoicesFailed: 'Failed to fetch the customer’s invoices',
  fetchRefundsFailed: 'Failed to fetch the payment’s refunds',
  refundFailed: 'The refund failed',
} as const;

/** Administrators: a customer's invoices and credit notes, a payment's refunds, and refunding. */
export const adminBillingApi = api.injectEndpoints({
  endpoints: (build) => {
    const endpoints = {
      /** GET /admin/users/{id}/invoices, newest first. */
      listCustomerInvoices: build.query<InvoiceList, { userId: string; perPage: number }>({
        query: ({ userId, perPage }) => ({
          url: pathWith(adminApiPaths.userInvoices, { id: userId }),
          params: { perPage },
        }),
        extraOptions: { fallback: adminBillingMessages.fetchInvoicesFailed },
        providesTags: ['Invoice', 'AdminPayment'],
      }),
      /** GET /payments/admin/payments/{id}/refunds: what was refunded and what may still be. */
      getPaymentRefunds: build.query<PaymentRefunds, string>({
        query: (id) => ({ url: pathWith(paymentsApiPaths.adminRefunds, { id }) }),
        extraOptions: { fallback: adminBillingMessages.fetchRefundsFailed },
        providesTags: ['Invoice', 'AdminPayment'],
      }),
      /** POST /payments/admin/payments/{id}/refunds: the refund, its credit note, the license as chosen. */
      refundPayment: build.mutation<PaymentRefunds, { id: string; body: RefundRequest }>({
        query: ({ id, body }) => ({
          url: pathWith(paymentsApiPaths.adminRefunds, { id }),
          method: 'POST',
          body,
        }),
        extraOptions: { fallback: adminBillingMessages.refundFailed },
        // The license may be revoked or ended; the payment lists and the customer's invoices change.
        invalidatesTags: ['Invoice', 'AdminPayment', 'AdminLicense', 'License', 'Dashboard', 'SecurityEvent'],
      }),
    };
    recordEndpointArea('admin-invoices', Object.keys(endpoints));
    return endpoints;
  },
});

export const { useListCustomerInvoicesQuery, useGetPaymentRefundsQuery, useRefundPaymentMutation } =
  adminBillingApi;
