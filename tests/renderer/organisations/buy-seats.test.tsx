import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChargeSummary } from '../../../src/shared/api/charges';
import type { Organisation, SeatQuote } from '../../../src/shared/api/organisations';
import { FakeApi, problem } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';
import { makeOrganisation, MEMBERS, ORG_ID } from './fixtures';

const BASE = `/organisations/${ORG_ID}`;

const quote = (to: number): SeatQuote => ({
  seats_from: 3,
  seats_to: to,
  currency: 'INR',
  per_seat_minor: 50_000,
  due_now_minor: (to - 3) * 25_000,
  next_charge_minor: to * 50_000,
  period_end: '2026-12-20T10:00:00.000Z',
});

let api: FakeApi;
let organisation: Organisation;

beforeEach(async () => {
  api = await new FakeApi().start();
  organisation = makeOrganisation();
  api.on(`GET ${BASE}`, () => ({ json: organisation }));
  api.on(`GET ${BASE}/members`, () => ({ json: MEMBERS }));
  api.on(`GET ${BASE}/invitations`, () => ({ json: [] }));
});
afterEach(async () => {
  await api.close();
});

async function openDialog() {
  const services = await servicesFor(api, 'user');
  renderApp(services, BASE);
  await userEvent.click(await screen.findByRole('button', { name: 'Buy more seats' }));
  return within(await screen.findByRole('dialog', { name: 'Buy more seats for Acme Studio' }));
}

const body = (route: string, index = 0) => JSON.parse(api.calls(route)[index]?.body || 'null') as unknown;

describe('buy more seats', () => {
  it('prices the new total (prorated now, then every seat) and buys it with the same total', async () => {
    api.on(`POST ${BASE}/seats/quote`, (request) => ({
      json: quote((JSON.parse(request.body) as { seats: number }).seats),
    }));
    api.on(`POST ${BASE}/seats`, () => {
      organisation = makeOrganisation({ seats: { ...organisation.seats!, bought: 5 } });
      // What the payment took, as its invoice says (the prorated line, tax included).
      const charge: ChargeSummary = {
        currency: 'INR',
        description: 'Business plan: 2 seats added (3 to 5), prorated for the rest of the period',
        quantity: 1,
        list_price_minor: 50_000,
        unit_price_minor: 50_000,
        discount: null,
        credit_minor: 0,
        taxes: [{ name: 'IGST', rate_bp: 1800, amount: 7_627 }],
        lines_include_tax: true,
        charged_today_minor: 50_000,
        invoice_number: 'INV-000007',
        next_charge: { amount_minor: 250_000, at: '2026-12-20T10:00:00.000Z' },
      };
      return { json: { ...organisation, charge } };
    });
    const dialog = await openDialog();
    const total = dialog.getByRole('textbox', { name: 'Seats in total' });
    expect((total as HTMLInputElement).value).toBe('4');
    // Buying waits for a price.
    expect(dialog.getByRole('button', { name: 'Buy seats' }).hasAttribute('disabled')).toBe(true);
    await userEvent.clear(total);
    await userEvent.type(total, '5');
    await userEvent.click(dialog.getByRole('button', { name: 'Show the price' }));
    const summary = within(await dialog.findByTestId('seat-quote'));
    expect(summary.getByText('3 → 5')).toBeTruthy();
    expect(summary.getByText('Due now, until Dec 20, 2026').nextSibling?.textContent).toBe('₹500');
    expect(summary.getByText('Next charge, for 5 seats').nextSibling?.textContent).toBe('₹2,500');
    expect(body(`POST ${BASE}/seats/quote`)).toEqual({ seats: 5 });
    await userEvent.click(dialog.getByRole('button', { name: 'Buy and pay ₹500' }));
    await waitFor(() => expect(body(`POST ${BASE}/seats`)).toEqual({ seats: 5 }));
    await waitFor(() =>
      expect(screen.getByTestId('organisation-seats').textContent).toBe('2 of 5 seats used'),
    );
    expect(
      await screen.findByText(
        '₹500 charged today for the rest of this period; the next charge is ₹2,500 on Dec 20, 2026.',
      ),
    ).toBeTruthy();
  });

  it('refuses a total that is not more than now before asking, and shows the server’s refusals', async () => {
    api.on(`POST ${BASE}/seats/quote`, () => ({ json: quote(4) }));
    api.on(`POST ${BASE}/seats`, () => problem(409, 'The card was declined', 'payment_declined'));
    const dialog = await openDialog();
    const total = dialog.getByRole('textbox', { name: 'Seats in total' });
    await userEvent.clear(total);
    await userEvent.type(total, '3');
    expect(await dialog.findByText('More than the 3 seats you have')).toBeTruthy();
    expect(dialog.getByRole('button', { name: 'Show the price' }).hasAttribute('disabled')).toBe(true);
    await userEvent.clear(total);
    await userEvent.type(total, '4');
    await userEvent.click(dialog.getByRole('button', { name: 'Show the price' }));
    await userEvent.click(await dialog.findByRole('button', { name: 'Buy and pay ₹250' }));
    expect((await dialog.findByRole('alert')).textContent).toContain('The card was declined');
    expect(api.calls(`POST ${BASE}/seats`)).toHaveLength(1);
  });

  it('shows why a quote was refused', async () => {
    api.on(`POST ${BASE}/seats/quote`, () =>
      problem(409, 'The subscription is past due: pay it first', 'subscription_not_active'),
    );
    const dialog = await openDialog();
    await userEvent.click(dialog.getByRole('button', { name: 'Show the price' }));
    expect((await dialog.findByRole('alert')).textContent).toContain(
      'The subscription is past due: pay it first',
    );
  });
});
