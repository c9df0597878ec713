import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CouponPreview } from '../../../src/shared/api/coupons';
import type { Plan } from '../../../src/shared/api/plans';
import { FakeApi, problem } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';
import { makeLicense } from '../support/signed-in';
import { plan as sharedPlan } from '../support/api-answers';

const NOW = '2025-03-01T10:00:00.000Z';
/** Several requests and renders in a row, on a machine that runs other suites at the same time. */
const SLOW = { timeout: 8000 };

/** A paid monthly plan of three machines at ₹999, as the shared fixture writes plans. */
const plan = (id: string, extra: Partial<Plan> = {}): Plan =>
  sharedPlan(id, {
    description: `${id} plan`,
    price_minor: 99_900,
    billing_interval: 'month',
    max_activations: 3,
    created_at: NOW,
    updated_at: NOW,
    ...extra,
  });

// Pro is paid once; Monthly is a subscription.
const PLANS = [
  plan('base', { name: 'Base', price_minor: 0, billing_interval: 'free', max_activations: 1 }),
  plan('pro', { name: 'Pro', billing_interval: 'lifetime' }),
  plan('monthly', { name: 'Monthly' }),
];

const preview = (extra: Partial<CouponPreview> = {}): CouponPreview => ({
  code: 'SPRING20',
  description: null,
  duration: 'once',
  amount_minor: 99_900,
  discount_minor: 20_000,
  amount_after_minor: 79_900,
  currency: 'INR',
  ...extra,
});

let api: FakeApi;

beforeEach(async () => {
  api = await new FakeApi().start();
  api.on('GET /subscriptions', () => ({ json: { data: [] } }));
  api.on('GET /plans/public', () => ({ json: PLANS }));
  api.on('GET /payments/config', () => ({
    json: {
      provider: 'sandbox',
      key_id: 'sandbox',
      sandbox: true,
      currency: 'INR',
      currencies: ['INR', 'USD', 'EUR'],
    },
  }));
  api.on('GET /licenses/current-plan', () => ({
    json: { plan: PLANS[0], license: makeLicense('lic-base') },
  }));
  api.on('GET /licenses', () => ({ json: [makeLicense('lic-base')] }));
  api.on('GET /payments/history', () => ({ json: { data: [], total: 0, page: 1, perPage: 10 } }));
});
afterEach(async () => {
  await api.close();
});

async function openCoupon() {
  const services = await servicesFor(api, 'user');
  renderApp(services, '/purchase');
  await screen.findByRole('article', { name: 'Pro' }, { timeout: 10_000 });
  const toggle = screen.getByRole('button', { name: 'I have a coupon' });
  expect(toggle.getAttribute('aria-expanded')).toBe('false');
  await userEvent.click(toggle);
  const form = within(screen.getByRole('form', { name: 'Coupon' }));
  // The keyboard is in the field at once.
  await waitFor(() =>
    expect(document.activeElement).toBe(form.getByRole('textbox', { name: 'Coupon code' })),
  );
  return form;
}

const body = (route: string, index = 0) => JSON.parse(api.calls(route)[index]?.body ?? 'null') as unknown;

describe('purchase page: a coupon', () => {
  it('previews the code on the chosen plan, shows the price before and after, and opens the order with it', async () => {
    api.on('POST /coupons/preview', () => ({ json: preview({ description: 'Spring sale' }) }));
    api.on('POST /payments/razorpay/create-order', () => ({
      status: 201,
      json: {
        id: 'pay-1',
        order_id: 'order_sandbox_abc',
        amount: 79_900,
        currency: 'INR',
        key_id: 'sandbox',
        provider: 'sandbox',
        sandbox: true,
        plan: { id: 'pro', code: 'pro', name: 'Pro' },
      },
    }));
    const form = await openCoupon();
    // Only plans on sale: not the free one.
    expect(
      within(form.getByRole('combobox', { name: 'Apply to' }))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Pro', 'Monthly']);
    await userEvent.type(form.getByRole('textbox', { name: 'Coupon code' }), 'spring20{Enter}');

    const applied = await screen.findByTestId('coupon-applied', {}, SLOW);
    expect(applied.textContent).toBe('SPRING20 on Pro: ₹999 → ₹799 (Spring sale)');
    expect(body('POST /coupons/preview')).toEqual({ code: 'SPRING20', plan_id: 'pro', currency: 'INR' });
    const pro = within(screen.getByRole('article', { name: 'Pro' }));
    expect(pro.getByText('Coupon SPRING20: ₹999 → ₹799.')).toBeTruthy();
    // The other plans keep their price and open without the coupon.
    expect(
      within(screen.getByRole('article', { name: 'Monthly' })).getByRole('button', {
        name: 'Subscribe — ₹999 / month',
      }),
    ).toBeTruthy();

    await userEvent.click(pro.getByRole('button', { name: 'Buy Pro — ₹799' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Sandbox checkout' }, SLOW));
    expect(body('POST /payments/razorpay/create-order')).toEqual({
      plan_id: 'pro',
      currency: 'INR',
      coupon_code: 'SPRING20',
    });
    expect(dialog.getByText('₹799')).toBeTruthy();
  });

  it('on a subscription: "first month" for once, "every month" for forever, and the code goes with it', async () => {
    let duration: CouponPreview['duration'] = 'once';
    api.on('POST /coupons/preview', (request) => ({
      json: preview({ duration, code: (JSON.parse(request.body) as { code: string }).code }),
    }));
    api.on('POST /subscriptions', () => problem(503, 'Subscriptions are paused', 'unavailable'));
    const form = await openCoupon();
    await userEvent.selectOptions(form.getByRole('combobox', { name: 'Apply to' }), 'Monthly');
    await userEvent.type(form.getByRole('textbox', { name: 'Coupon code' }), 'SPRING20');
    await userEvent.click(form.getByRole('button', { name: 'Apply' }));
    expect((await screen.findByTestId('coupon-applied', {}, SLOW)).textContent).toBe(
      'SPRING20 on Monthly: ₹999 → ₹799 first month',
    );
    const monthly = within(screen.getByRole('article', { name: 'Monthly' }));
    expect(monthly.getByText(/then ₹999 \/ month\. Renews every month until you cancel\./)).toBeTruthy();

    // Another code that lasts: every month.
    duration = 'forever';
    await userEvent.click(form.getByRole('button', { name: 'Remove coupon SPRING20' }));
    await userEvent.type(form.getByRole('textbox', { name: 'Coupon code' }), 'ALWAYS20');
    await userEvent.click(form.getByRole('button', { name: 'Apply' }));
    await waitFor(
      () => expect(screen.getByTestId('coupon-applied').textContent).toContain('₹999 → ₹799 every month'),
      SLOW,
    );
    await userEvent.click(monthly.getByRole('button', { name: 'Subscribe — ₹799 / month' }));
    await screen.findByText('Subscriptions are paused', {}, SLOW);
    expect(body('POST /subscriptions')).toEqual({
      plan_id: 'monthly',
      currency: 'INR',
      coupon_code: 'ALWAYS20',
    });
  });

  it('a coupon refused when the order is opened (used up since the preview) goes back to the full price, the reason by the field', async () => {
    api.on('POST /coupons/preview', () => ({ json: preview() }));
    api.on('POST /payments/razorpay/create-order', () =>
      problem(409, 'This coupon has been used as often as it allows', 'coupon_exhausted'),
    );
    const form = await openCoupon();
    const input = form.getByRole('textbox', { name: 'Coupon code' });
    await userEvent.type(input, 'spring20{Enter}');
    await userEvent.click(await screen.findByRole('button', { name: 'Buy Pro — ₹799' }, SLOW));
    // Said where the buyer is (the page's alert) and beside the field.
    expect((await screen.findByRole('alert', {}, SLOW)).textContent).toContain(
      'This coupon has been used as often as it allows',
    );
    expect(form.getByText('This coupon has been used as often as it allows')).toBeTruthy();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('button', { name: 'Buy Pro' })).toBeTruthy();
    expect(screen.queryByTestId('coupon-applied')).toBeNull();
  });

  it("shows the server's refusal next to the field, and removing the code goes back to the full price", async () => {
    api.on('POST /coupons/preview', (request) =>
      (JSON.parse(request.body) as { code: string }).code === 'OLD10'
        ? problem(409, 'The coupon OLD10 has expired', 'coupon_expired')
        : { json: preview() },
    );
    const form = await openCoupon();
    const input = form.getByRole('textbox', { name: 'Coupon code' });
    // The field's own check first: nothing is sent.
    await userEvent.type(input, 'half off!{Enter}');
    expect(await form.findByText('A coupon code has only letters, digits, - and _')).toBeTruthy();
    expect(api.calls('POST /coupons/preview')).toHaveLength(0);

    await userEvent.clear(input);
    await userEvent.type(input, 'old10{Enter}');
    const refusal = await form.findByText('The coupon OLD10 has expired', {}, SLOW);
    // Announced with the field it is about.
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toContain(refusal.id);
    expect(screen.queryByTestId('coupon-applied')).toBeNull();
    expect(screen.getByRole('button', { name: 'Buy Pro' })).toBeTruthy();

    await userEvent.clear(input);
    await userEvent.type(input, 'spring20{Enter}');
    await screen.findByRole('button', { name: 'Buy Pro — ₹799' }, SLOW);
    expect(form.queryByText('The coupon OLD10 has expired')).toBeNull();
    await userEvent.click(form.getByRole('button', { name: 'Remove coupon SPRING20' }));
    expect(screen.getByRole('button', { name: 'Buy Pro' })).toBeTruthy();
    // The keyboard stays in the field, ready for another code.
    expect(document.activeElement).toBe(form.getByRole('textbox', { name: 'Coupon code' }));
    expect((form.getByRole('textbox', { name: 'Coupon code' }) as HTMLInputElement).value).toBe('');
    expect(screen.queryByTestId('coupon-applied')).toBeNull();
  });
});
