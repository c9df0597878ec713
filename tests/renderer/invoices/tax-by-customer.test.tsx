import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { BillingDetails, Invoice } from '../../../src/shared/api/invoices';
import { FakeApi } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';

/** Issue 34, item 8 in the portal: the EU VAT number in the billing details, an export's note on its invoice. */

const LUT = 'Supply meant for export under LUT without payment of IGST, LUT ARN AD290425001234X';
const REVERSE = 'Reverse charge: VAT to be accounted for by the recipient';

/** A German business's invoice as the server issues it: no GST, the LUT note and the reverse charge. */
const exportInvoice: Invoice = {
  id: 'inv-de',
  kind: 'invoice',
  title: 'Tax invoice',
  number: 'INV-000007',
  issued_at: '2026-01-03T10:00:00.000Z',
  currency: 'INR',
  subtotal: 84_661,
  tax: 0,
  total: 84_661,
  tax_name: 'GST',
  tax_rate_bp: 0,
  tax_inclusive: false,
  lines_include_tax: false,
  taxes: [],
  place_of_supply: 'Outside India',
  tax_treatment: 'eu_reverse_charge',
  tax_notes: [LUT, REVERSE],
  payment_id: 'pay-1',
  payment_reference: 'pay_sandbox_de',
  service_period: null,
  organisation: null,
  corrects: null,
  seller: { name: 'Seller', address: [], country: null, tax_id: '29AAGCB7383J1Z4', email: null },
  buyer: {
    name: 'Muster GmbH',
    address: ['Unter den Linden 1', '10117 Berlin', 'Germany'],
    country: 'DE',
    tax_id: 'DE123456789',
    email: 'buyer@example.com',
  },
  lines: [
    {
      kind: 'item',
      description: 'Pro plan, one month',
      quantity: 1,
      unit_amount: 84_661,
      amount: 84_661,
      coupon_code: null,
    },
  ],
};

let api: FakeApi;
let saved: BillingDetails | null;
beforeEach(async () => {
  saved = null;
  api = await new FakeApi().start();
  api.on('GET /billing/details', () => ({ json: { details: saved } }));
  api.on('PUT /billing/details', (request) => {
    const sent = JSON.parse(request.body) as BillingDetails;
    saved = { ...sent, tax_id: 'DE123456789', updated_at: '2026-01-03T10:00:00.000Z' };
    return { json: saved };
  });
  api.on('GET /billing/invoices', () => ({
    json: { data: [exportInvoice], total: 1, page: 1, perPage: 10 },
  }));
});
afterEach(async () => {
  await api.close();
});

const card = async () =>
  within((await screen.findByRole('heading', { name: 'Billing details' })).closest('form') as HTMLElement);

it('in an EU country the tax id is a VAT number: its format is checked on leaving the field, a valid one is saved', async () => {
  renderApp(await servicesFor(api, 'user'), '/billing');
  const billing = await card();
  expect(billing.getByRole('textbox', { name: /GSTIN/ })).toBeDefined();
  await userEvent.selectOptions(billing.getByRole('combobox', { name: /Country/ }), 'DE');
  const vat = billing.getByRole('textbox', { name: /VAT number/ });
  expect(billing.getByText(/A business’s VAT number, e\.g\. DE123456789/)).toBeDefined();
  await userEvent.type(vat, 'DE12345');
  await userEvent.tab();
  expect(
    await billing.findByText('This is not a VAT number of Germany: it should look like DE123456789'),
  ).toBeDefined();
  expect(vat.getAttribute('aria-invalid')).toBe('true');

  await userEvent.type(billing.getByRole('textbox', { name: /Billing name/ }), 'Muster GmbH');
  await userEvent.type(billing.getByRole('textbox', { name: /^Address\s*\*?$/ }), 'Unter den Linden 1');
  await userEvent.type(billing.getByRole('textbox', { name: /City/ }), 'Berlin');
  await userEvent.type(billing.getByRole('textbox', { name: /Postal code/ }), '10117');
  // Refused while the number is wrong: nothing is sent.
  await userEvent.click(billing.getByRole('button', { name: 'Save billing details' }));
  expect(api.calls('PUT /billing/details')).toHaveLength(0);

  await userEvent.clear(vat);
  await userEvent.type(vat, '123 456 789');
  await userEvent.click(billing.getByRole('button', { name: 'Save billing details' }));
  await waitFor(() => expect(api.calls('PUT /billing/details')).toHaveLength(1));
  expect(JSON.parse(api.calls('PUT /billing/details')[0]!.body)).toMatchObject({
    country: 'DE',
    tax_id: '123 456 789',
  });
  await waitFor(() => expect((vat as HTMLInputElement).value).toBe('DE123456789'));
});

it('outside India and the EU the field is a plain tax id', async () => {
  renderApp(await servicesFor(api, 'user'), '/billing');
  const billing = await card();
  await userEvent.selectOptions(billing.getByRole('combobox', { name: /Country/ }), 'US');
  expect(billing.getByRole('textbox', { name: /Tax id/ })).toBeDefined();
  expect(billing.queryByRole('textbox', { name: /VAT number/ })).toBeNull();
});

it('an export’s invoice says so in the list, and its details show the LUT note, the reverse charge and the VAT number', async () => {
  renderApp(await servicesFor(api, 'user'), '/billing');
  const list = await screen.findByRole('table', { name: 'Your invoices' });
  expect(await within(list).findByText('Export, reverse charge')).toBeDefined();
  await userEvent.click(within(list).getByRole('button', { name: 'Details of tax invoice INV-000007' }));
  const dialog = await screen.findByRole('dialog', { name: 'Tax invoice INV-000007' });
  expect(within(dialog).getByText(LUT)).toBeDefined();
  expect(within(dialog).getByText(REVERSE)).toBeDefined();
  expect(within(dialog).getByText(/VAT number DE123456789/)).toBeDefined();
  expect(within(dialog).getByText(/Place of supply Outside India/)).toBeDefined();
  // No tax line: nothing was charged.
  expect(within(dialog).queryByText(/^(IGST|CGST|SGST) /)).toBeNull();
});
