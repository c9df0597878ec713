import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Plan } from '../../../src/shared/api/plans';
import { type FakeApi, problem } from '../support/fake-api';
import { basePlan, license } from '../pages/support-licenses/license-fixtures';
import { withOwnPrice } from '../support/plan-prices';
import { renderApp, servicesFor } from '../support/render-app';
import { openPortalPage, startFakeApi } from './portal-page';

const plan = (overrides: Partial<Plan>): Plan =>
  withOwnPrice({ ...basePlan, prices: undefined, ...overrides });

const plans = [
  plan({}),
  plan({
    id: 'plan-pro',
    code: 'pro',
    name: 'Pro',
    price_minor: 1_999,
    currency: 'USD',
    billing_interval: 'month',
    max_activations: 3,
    features: [
      {
        feature_id: 'f-chat',
        key: 'ai_chat',
        name: 'AI chat',
        kind: 'metered',
        period: 'month',
        unit: 'messages',
        limit: null,
        overage: { policy: 'stop', price_minor: null, per_units: 1, cap: null },
        pack: null,
      },
      {
        feature_id: 'f-voice',
        key: 'voice',
        name: 'Voice commands',
        kind: 'boolean',
        period: null,
        unit: null,
        limit: null,
        overage: { policy: 'stop', price_minor: null, per_units: 1, cap: null },
        pack: null,
      },
    ],
  }),
];

let api: FakeApi;
beforeEach(async () => {
  api = await startFakeApi();
});
afterEach(() => {
  return api.close();
});

describe('landing page', () => {
  it('shows the public plans: price from minor units, Free, seats and features with limits', async () => {
    api.on('GET /plans/public', () => ({ json: plans }));
    await openPortalPage(api, '/landing');
    const pro = await screen.findByRole('article', { name: 'Pro' }, { timeout: 10_000 });
    expect(within(pro).getByText('$19.99')).toBeTruthy();
    expect(within(pro).getByText('per month')).toBeTruthy();
    expect(within(pro).getByText('Use on 3 devices at once')).toBeTruthy();
    expect(within(pro).getByText('AI chat: unlimited messages')).toBeTruthy();
    expect(within(pro).getByText('Voice commands')).toBeTruthy();
    const base = screen.getByRole('article', { name: 'Base' });
    expect(within(base).getByText('Free')).toBeTruthy();
    expect(within(base).getByText('Use on 1 device at once')).toBeTruthy();
    expect(within(base).getByText('AI chat: 100 messages per month')).toBeTruthy();
  });

  it('offers the download (through signing in, not registration), sign-in and registration', async () => {
    await openPortalPage(api, '/landing');
    const download = await screen.findByRole(
      'link',
      { name: 'Download the desktop app' },
      { timeout: 10_000 },
    );
    // Signed in, the licenses screen sends #downloads on to the installers of the user's license.
    expect(download.getAttribute('href')).toBe('/login?next=%2Flicenses%23downloads');
    const main = within(screen.getByRole('main'));
    expect(main.getAllByRole('link', { name: 'Sign in' })[0]?.getAttribute('href')).toBe('/login');
    expect(main.getByRole('link', { name: /Create account/ }).getAttribute('href')).toBe('/register');
  });

  it('a visitor is offered the plan’s free trial through creating an account, and comes back to it', async () => {
    const withTrial = plans.map((item) => (item.id === 'plan-pro' ? { ...item, trial_days: 14 } : item));
    api.on('GET /plans/public', () => ({ json: withTrial }));
    await openPortalPage(api, '/landing');
    const offer = await screen.findByRole(
      'link',
      { name: 'Start your 14-day free trial of Pro: create an account first, no card needed' },
      { timeout: 10_000 },
    );
    expect(offer.getAttribute('href')).toBe('/register?next=%2Flanding%3Ftrial%3Dplan-pro');
  });

  it('a signed-in customer starts the trial in one click; none is offered once they hold the plan', async () => {
    const withTrial = plans.map((item) => (item.id === 'plan-pro' ? { ...item, trial_days: 14 } : item));
    api.on('GET /plans/public', () => ({ json: withTrial }));
    let held: ReturnType<typeof license>[] = [];
    api.on('GET /licenses', () => ({ json: held }));
    const started = license({
      plan_id: 'plan-pro',
      trial: {
        ends_at: '2026-12-18T10:00:00.000Z',
        days_left: 14,
        started_at: '2026-12-04T10:00:00.000Z',
        source: 'account',
      },
    });
    api.on('POST /licenses/trials', () => {
      held = [started];
      return { status: 201, json: { ...started, message: 'Your free trial of Pro has started.' } };
    });
    const view = renderApp(await servicesFor(api, 'user'), '/landing?trial=plan-pro');
    const button = await screen.findByRole(
      'button',
      { name: 'Start your 14-day free trial of Pro, no card needed' },
      { timeout: 10_000 },
    );
    await userEvent.click(button);
    expect(
      await screen.findByText(
        /^Your free trial of Pro has started: 14 days, until /,
        {},
        { timeout: 10_000 },
      ),
    ).toBeTruthy();
    expect(JSON.parse(api.calls('POST /licenses/trials')[0]?.body ?? 'null')).toEqual({
      plan_id: 'plan-pro',
    });
    await screen.findByRole('heading', { level: 1, name: 'Licenses' }, { timeout: 10_000 });

    await view.router.navigate('/landing');
    await screen.findByRole('article', { name: 'Pro' }, { timeout: 10_000 });
    expect(screen.queryByRole('button', { name: /free trial/ })).toBeNull();
  });

  it('a failed plan load says what to do and can be retried', async () => {
    let fail = true;
    api.on('GET /plans/public', () => (fail ? problem(503, 'Service unavailable') : { json: plans }));
    await openPortalPage(api, '/landing');
    const alert = await screen.findByRole('alert', undefined, { timeout: 10_000 });
    expect(alert.textContent).toContain('Plans could not be loaded');
    expect(alert.textContent).toContain('Check your connection and try again');
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'Pro' })).toBeTruthy();
  });
});
