import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Invoice } from '../../../src/shared/api/invoices';
import { FakeApi } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';

const ORG_ID = 'org-acme';

/** An organisation's 3 seats with 10 % off, billed to it in Maharashtra: as the server issues it. */
const organisationInvoice: Invoice = {
  id: 'inv-1',
  kind: 'invoice',
  title: 'Tax invoice',
  number: 'INV-000001',
  issued_at: '2026-01-03T10:00:00.000Z',
  currency: 'INR',
  subtotal: 342_992,
  tax: 61_738,
  total: 404_730,
  tax_name: 'GST',
  tax_rate_bp: 1800,
  tax_inclusive: true,
  lines_include_tax: true,
  taxes: [{ name: 'IGST', rate_bp: 1800, amount: 61_738 }],
  place_of_supply: 'Maharashtra (27)',
  tax_treatment: 'gst_inter_state',
  tax_notes: [],
  payment_id: 'pay-1',
  payment_reference: 'pay_sandbox_abc',
  service_period: { start: '2026-01-03T10:00:00.000Z', end: '2026-02-03T10:00:00.000Z' },
  organisation: { id: ORG_ID, name: 'Acme Labs' },
  corrects: null,
  seller: { name: 'Seller', address: [], country: null, tax_id: '29AAGCB7383J1Z4', email: null },
  buyer: {
    name: 'Acme Labs Pvt Ltd',
    address: ['1 Marine Drive', '400001 Mumbai', 'Maharashtra', 'India'],
    country: 'IN',
    tax_id: '27AAPFU0939F1ZV',
    email: 'owner@example.com',
  },
  lines: [
    {
      kind: 'item',
      description: 'Business plan, monthly subscription, per seat',
      quantity: 3,
      unit_amount: 149_900,
      amount: 449_700,
      coupon_code: null,
    },
    {
      kind: 'discount',
      description: 'Coupon TEAM10: 10% off each seat',
      quantity: 3,
      unit_amount: -14_990,
      amount: -44_970,
      coupon_code: 'TEAM10',
    },
  ],
};

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
  api.on('GET /billing/details', () => ({ json: { details: null } }));
  api.on('GET /billing/invoices', () => ({
    json: { data: [organisationInvoice], total: 1, page: 1, perPage: 10 },
  }));
});
afterEach(async () => {
  await api.close();
});

it('an invoice opens itemised: seats × list price, the coupon, taxable value, IGST, and its organisation’s page', async () => {
  renderApp(await servicesFor(api, 'user'), '/billing');
  const list = await screen.findByRole('table', { name: 'Your invoices' });
  expect(await within(list).findByText('Billed to Acme Labs')).toBeDefined();
  await userEvent.click(within(list).getByRole('button', { name: 'Details of tax invoice INV-000001' }));

  const dialog = await screen.findByRole('dialog', { name: 'Tax invoice INV-000001' });
  const lines = within(dialog).getByRole('table');
  const rows = within(lines)
    .getAllByRole('row')
    .map((row) => row.textContent?.replace(/\s+/g, ' '));
  expect(rows[1]).toMatch(/^Business plan, monthly subscription, per seat3₹1,499\.00₹4,497\.00$/);
  expect(rows[2]).toMatch(/^Coupon TEAM10: 10% off each seat3-₹149\.90-₹449\.70$/);
  expect(within(dialog).getByText('IGST 18% (included)')).toBeDefined();
  expect(within(dialog).getByText('₹3,429.92')).toBeDefined();
  expect(within(dialog).getByText('₹4,047.30')).toBeDefined();
  expect(
    within(dialog).getByText(/Place of supply Maharashtra \(27\) · Payment reference pay_sandbox_abc/),
  ).toBeDefined();
  expect(within(dialog).getByRole('link', { name: 'Manage its billing details' }).getAttribute('href')).toBe(
    `/organisations/${ORG_ID}`,
  );
});
