import type {
  BillingDetails,
  BillingDetailsAnswer,
  BillingDetailsRequest,
  Invoice,
  InvoiceKind,
  InvoiceList,
} from '../../../../shared/api/invoices';
import { pathWith } from '../../../../shared/routes';
import { billingApiPaths } from '../../../../shared/api-paths';
import { api, servicesOf } from '../../lib/api';
import { recordEndpointArea } from '../../lib/api-actions';
import { attempt } from '../../lib/api-errors';
import { saveFile } from './save-file';

// The fallbacks of the billing calls, shown when the server gives no message.
export const billingMessages = {
  fetchDetailsFailed: 'Failed to fetch your billing details',
  saveDetailsFailed: 'Could not save the billing details',
  fetchInvoicesFailed: 'Failed to fetch your invoices',
  downloadFailed: 'Could not download the PDF',
} as const;

export interface InvoiceListQuery {
  page: number;
  perPage: number;
  kind?: InvoiceKind;
}

/** The customer's billing details and invoices; the PDF download is shared with the admin screens. */
export const billingApi = api.injectEndpoints({
  endpoints: (build) => {
    const endpoints = {
      /** GET /billing/details: null until the customer saves them. */
      getBillingDetails: build.query<BillingDetails | null, void>({
        query: () => ({ url: billingApiPaths.details }),
        transformResponse: (answer: BillingDetailsAnswer) => answer.details,
        extraOptions: { fallback: billingMessages.fetchDetailsFailed },
        providesTags: ['Billing'],
      }),
      /** PUT /billing/details: printed on every invoice issued from now on. */
      saveBillingDetails: build.mutation<BillingDetails, BillingDetailsRequest>({
        query: (body) => ({ url: billingApiPaths.details, method: 'PUT', body }),
        extraOptions: { fallback: billingMessages.saveDetailsFailed },
        invalidatesTags: ['Billing'],
      }),
      /** GET /billing/invoices: a new payment (the Payment tag) brings a new invoice. */
      getMyInvoices: build.query<InvoiceList, InvoiceListQuery>({
        query: ({ page, perPage, kind }) => ({
          url: billingApiPaths.invoices,
          params: { page, perPage, ...(kind ? { kind } : {}) },
        }),
        extraOptions: { fallback: billingMessages.fetchInvoicesFailed },
        providesTags: ['Invoice', 'Payment'],
      }),
      /**
       * GET /billing/invoices/{id}/pdf with the session's token, saved as `<number>.pdf`. Its
       * owner or an administrator may download it; nothing is kept in the store.
       */
      downloadInvoicePdf: build.mutation<null, Pick<Invoice, 'id' | 'number'>>({
        queryFn: ({ id, number }, queryApi) =>
          attempt(
            async () => {
              const { data } = await servicesOf(queryApi).client.http.get<ArrayBuffer>(
                pathWith(billingApiPaths.invoicePdf, { id }),
                { responseType: 'arraybuffer' },
              );
              saveFile(new Blob([data], { type: 'application/pdf' }), `${number}.pdf`);
              return null;
            },
            { fallback: billingMessages.downloadFailed },
          ),
      }),
    };
    // Only this module's names: `billingApi.endpoints` also lists what other features injected.
    recordEndpointArea('invoices', Object.keys(endpoints));
    return endpoints;
  },
});

export const {
  useGetBillingDetailsQuery,
  useSaveBillingDetailsMutation,
  useGetMyInvoicesQuery,
  useDownloadInvoicePdfMutation,
} = billingApi;
