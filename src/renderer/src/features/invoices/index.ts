// The invoices feature as other features and app/ see it: the invoice list with its PDF download
// (the admin screens show a customer's invoices the same way), how amounts are written, and the
// billing details form (an organisation's details are edited with it too).
export {
  billingApi,
  billingMessages,
  useDownloadInvoicePdfMutation,
  useGetBillingDetailsQuery,
} from './invoices-endpoints';
export {
  describeTax,
  formatIssueDate,
  formatMinorAmount,
  INVOICE_KIND_LABELS,
} from './components/invoice-format';
export { InvoiceTable } from './components/invoice-table';
export { BillingDetailsCard } from './components/billing-details-card';
