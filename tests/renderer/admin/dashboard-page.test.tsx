import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DashboardStats } from '../../../src/shared/api/admin';
import { showLanguage } from '../../../src/renderer/src/lib/i18n/portal-i18n';
import { FakeApi, problem, testUser } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';

const days = Array.from({ length: 30 }, (_, index) => {
  const day = new Date(Date.UTC(2025, 10, 1 + index)).toISOString().slice(0, 10);
  return {
    period: day,
    totals:
      index === 2
        ? [{ currency: 'INR', amount_minor: 150_000, gross_minor: 150_000, refunded_minor: 0, payments: 2 }]
        : index === 9
          ? [{ currency: 'INR', amount_minor: 49_900, gross_minor: 49_900, refunded_minor: 0, payments: 1 }]
          : [],
  };
});
const months = Array.from({ length: 12 }, (_, index) => ({
  period: `2025-${String(index + 1).padStart(2, '0')}`,
  totals:
    index === 10
      ? [{ currency: 'INR', amount_minor: 199_900, gross_minor: 199_900, refunded_minor: 0, payments: 3 }]
      : [],
}));

/** "5 minutes ago" is measured from Date.now(), which each test stops here (timers still run). */
const NOW = Date.now();

const stats: DashboardStats = {
  users: { total: 1234, active: 1180, unconfirmed: 20, disabled: 34, admins: 3, new_last_30_days: 57 },
  licenses: {
    total: 900,
    active: 700,
    by_status: { active: 700, suspended: 20, revoked: 30, expired: 150, trial_expired: 5, paused: 3 },
    perpetual: { update_window_open: 40, update_window_lapsed: 12 },
  },
  activations: { active: 812, last_24h: 9 },
  revenue: {
    totals: [
      {
        currency: 'INR',
        amount_minor: 4_599_900,
        gross_minor: 5_099_900,
        refunded_minor: 500_000,
        payments: 41,
      },
    ],
    by_day: days,
    by_month: months,
  },
  security: {
    by_severity: { info: 120, warning: 14, critical: 2 },
    recent: [
      {
        id: 'e1',
        type: 'license_revoked',
        severity: 'warning',
        user_id: 'u1',
        user_email: 'ada@example.com',
        actor_id: 'a1',
        actor_email: 'admin@example.com',
        ip: '203.0.113.9',
        user_agent: null,
        details: null,
        created_at: new Date(NOW - 5 * 60_000).toISOString(),
      },
      {
        id: 'e2',
        type: 'refresh_token_reuse',
        severity: 'critical',
        user_id: null,
        user_email: null,
        actor_id: null,
        actor_email: null,
        ip: null,
        user_agent: null,
        details: null,
        created_at: new Date(NOW - 2 * 3600_000).toISOString(),
      },
    ],
  },
  subscriptions: {
    active: 42,
    mrr: [
      { currency: 'INR', amount_minor: 4_663_00, subscriptions: 40 },
      { currency: 'USD', amount_minor: 17_16, subscriptions: 2 },
    ],
    churn: { window_days: 30, ended: 1, live_at_start: 6, rate: 1 / 6 },
    failed_payments: { last_30_days: 3, past_due: 2, suspended: 1 },
    paused: { now: 4, planned: 1 },
  },
  trials: {
    started: 14,
    converted: 5,
    rate: 5 / 14,
    by_month: months.map((m, index) =>
      index === 9
        ? { period: m.period, started: 4, converted: 1, rate: 0.25 }
        : index === 10
          ? { period: m.period, started: 10, converted: 4, rate: 0.4 }
          : { period: m.period, started: 0, converted: 0, rate: null },
    ),
  },
  generated_at: new Date(NOW).toISOString(),
};

let api: FakeApi;
beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
  api = await new FakeApi().start();
});
afterEach(() => {
  vi.useRealTimers();
  return api.close();
});

async function openOverview() {
  const services = await servicesFor(api, 'admin');
  const view = renderApp(services, '/admin');
  await screen.findByRole('heading', { level: 1, name: 'Overview' }, { timeout: 30_000 });
  return view;
}

const section = async (name: string) =>
  within(await screen.findByRole('region', { name }, { timeout: 10_000 }));

describe('/admin overview', { timeout: 90_000 }, () => {
  it('shows the headline numbers from GET /admin/dashboard', async () => {
    api.on('GET /admin/dashboard', () => ({ json: stats }));
    await openOverview();
    const users = await section('Users');
    expect(await users.findByText('1,234', {}, { timeout: 10_000 })).toBeTruthy();
    expect(users.getByText('57 new in the last 30 days')).toBeTruthy();
    // Accounts whose e-mail is not confirmed are counted apart from the active ones.
    expect(users.getByText('1,180 active · 20 unconfirmed · 34 disabled · 3 admins')).toBeTruthy();
    const licenses = await section('Active licenses');
    expect(licenses.getByText('700')).toBeTruthy();
    // Perpetual licenses by their update window: still getting updates, and lapsed.
    expect(licenses.getByText('Perpetual: 40 getting updates · 12 with updates lapsed')).toBeTruthy();
    expect((await section('Activations')).getByText('9 activated in the last 24 hours')).toBeTruthy();
    const revenue = await section('Revenue');
    // Net of refunds, with the gross paid and the refunded beside it.
    expect(revenue.getByText('₹45,999')).toBeTruthy();
    expect(revenue.getByText('net of refunds, all time, from 41 paid payments')).toBeTruthy();
    expect(revenue.getByText('₹50,999 gross · ₹5,000 refunded')).toBeTruthy();
  });

  it('shows MRR per currency as money, active subscriptions, churn as a percentage of n of m, and failed payments, from the same one call', async () => {
    api.on('GET /admin/dashboard', () => ({ json: stats }));
    await openOverview();
    const mrr = await section('Monthly recurring revenue');
    expect(await mrr.findByText(/4,663/, {}, { timeout: 10_000 })).toBeTruthy();
    expect(mrr.getByText(/17\.16/)).toBeTruthy();
    expect(mrr.getByText(/from 42 subscriptions billed/)).toBeTruthy();
    const active = await section('Active subscriptions');
    expect(active.getByText('42')).toBeTruthy();
    // The paused ones are found from here; those with a pause coming are said beside them.
    expect(active.getByRole('link', { name: '4 paused now' }).getAttribute('href')).toBe(
      '/admin/subscriptions?status=paused',
    );
    expect(active.getByText(/1 pausing when their period ends/)).toBeTruthy();
    const churn = await section('Churn, last 30 days');
    expect(churn.getByText('16.7%')).toBeTruthy();
    expect(churn.getByText('1 of 6 live 30 days ago ended since')).toBeTruthy();
    const failed = await section('Failed payments');
    expect(failed.getByText('3')).toBeTruthy();
    expect(failed.getByText('2 past due · 1 suspended now')).toBeTruthy();
    expect(failed.getByRole('link', { name: 'View the past-due subscriptions' }).getAttribute('href')).toBe(
      '/admin/subscriptions?status=past_due',
    );
    expect(api.calls('GET /admin/dashboard')).toHaveLength(1);
  });

  it('with no subscriptions the figures say so rather than 0 %', async () => {
    api.on('GET /admin/dashboard', () => ({
      json: {
        ...stats,
        subscriptions: {
          active: 0,
          mrr: [],
          churn: { window_days: 30, ended: 0, live_at_start: 0, rate: null },
          failed_payments: { last_30_days: 0, past_due: 0, suspended: 0 },
          paused: { now: 0, planned: 0 },
        },
      },
    }));
    await openOverview();
    expect(
      await (await section('Monthly recurring revenue')).findByText('None yet', {}, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(
      (await section('Churn, last 30 days')).getByText('No subscription was live 30 days ago'),
    ).toBeTruthy();
    const active = await section('Active subscriptions');
    expect(active.getByText('none paused now')).toBeTruthy();
    expect(active.queryByRole('link', { name: /paused/ })).toBeNull();
  });

  it('every chart has a summary line and its numbers as a table; revenue switches between 30 days and 12 months', async () => {
    api.on('GET /admin/dashboard', () => ({ json: stats }));
    await openOverview();
    const revenue = await section('Revenue, last 30 days');
    expect(
      revenue.getByText(/1,999 from 3 payments in the last 30 days; the best day was Nov 3/),
    ).toBeTruthy();
    const dayTable = revenue.getByRole('table', { name: 'Revenue, last 30 days' });
    expect(within(dayTable).getAllByRole('row')).toHaveLength(31);
    expect(within(dayTable).getByRole('rowheader', { name: 'Nov 3' }).nextSibling?.textContent).toMatch(
      /1,500/,
    );

    await userEvent.click(revenue.getByRole('radio', { name: '12 months' }));
    const months12 = await section('Revenue, last 12 months');
    expect(months12.getByText(/in the last 12 months; the best month was Nov 2025/)).toBeTruthy();
    expect(within(months12.getByRole('table')).getAllByRole('row')).toHaveLength(13);

    const licenses = await section('Licenses by status');
    expect(
      licenses.getByText(
        '900 licenses: 700 active, 20 suspended, 30 revoked, 150 expired, 5 trial ended and 3 paused.',
      ),
    ).toBeTruthy();
    expect(
      within(licenses.getByRole('table')).getByRole('rowheader', { name: 'Revoked' }).nextSibling
        ?.textContent,
    ).toBe('30');
    const severity = await section('Security events by severity');
    expect(
      severity.getByText('136 events in the last 30 days: 2 critical, 14 warning and 120 info.'),
    ).toBeTruthy();
  });

  it('trials per month: the summary with the conversion, and started, converted and the rate per month as a table', async () => {
    api.on('GET /admin/dashboard', () => ({ json: stats }));
    await openOverview();
    const trials = await section('Trials, last 12 months');
    expect(
      trials.getByText('14 trials started in the last 12 months; 5 of them were bought (36%).'),
    ).toBeTruthy();
    const table = trials.getByRole('table', { name: 'Trials, last 12 months' });
    expect(within(table).getAllByRole('row')).toHaveLength(13);
    const november = within(table).getByRole('rowheader', { name: 'Nov 2025' }).parentElement as HTMLElement;
    expect([...november.querySelectorAll('td')].map((cell) => cell.textContent)).toEqual(['10', '4', '40%']);
    const january = within(table).getByRole('rowheader', { name: 'Jan 2025' }).parentElement as HTMLElement;
    expect([...january.querySelectorAll('td')].map((cell) => cell.textContent)).toEqual(['0', '0', '–']);
  });

  it('no trials yet: the trials panel says so instead of an empty chart', async () => {
    api.on('GET /admin/dashboard', () => ({
      json: {
        ...stats,
        trials: {
          started: 0,
          converted: 0,
          rate: null,
          by_month: months.map((m) => ({ period: m.period, started: 0, converted: 0, rate: null })),
        },
      },
    }));
    await openOverview();
    const trials = await section('Trials, last 12 months');
    expect(trials.getByText('No free trials started in the last 12 months.')).toBeTruthy();
    expect(trials.getByText(/^No free trials yet\./)).toBeTruthy();
  });

  it('a severity with no events draws no bar, only its name and 0', async () => {
    api.on('GET /admin/dashboard', () => ({
      json: { ...stats, security: { ...stats.security, by_severity: { info: 7, warning: 0, critical: 0 } } },
    }));
    await openOverview();
    const region = await screen.findByRole(
      'region',
      { name: 'Security events by severity' },
      { timeout: 10_000 },
    );
    // The bars are drawn for the eye (the table says the same); each bar holds its severity's name.
    const barOf = async (name: string) =>
      (
        await within(region).findAllByText(name, { selector: '[aria-hidden="true"] *' }, { timeout: 10_000 })
      )[0] as HTMLElement;
    const info = await barOf('Info');
    expect(info.hasAttribute('data-empty')).toBe(false);
    for (const name of ['Warning', 'Critical']) {
      const bar = await barOf(name);
      expect(bar.getAttribute('data-empty'), name).toBe('true');
      expect(bar.style.backgroundColor, name).toBe('transparent');
    }
  });

  it('lists the newest security events and links to the security screen', async () => {
    api.on('GET /admin/dashboard', () => ({ json: stats }));
    await openOverview();
    const recent = await section('Recent security events');
    expect(recent.getByText('License revoked')).toBeTruthy();
    expect(recent.getByText('ada@example.com, by admin@example.com · 203.0.113.9')).toBeTruthy();
    expect(recent.getByText('Refresh token reused')).toBeTruthy();
    expect(recent.getByText('Critical')).toBeTruthy();
    expect(recent.getByText('5 minutes ago')).toBeTruthy();
    expect(recent.getByRole('link', { name: 'View all security events' }).getAttribute('href')).toBe(
      '/admin/security',
    );
  });

  it('a fresh install with nothing paid says so instead of an empty chart', async () => {
    api.on('GET /admin/dashboard', () => ({
      json: {
        ...stats,
        revenue: {
          totals: [],
          by_day: days.map((day) => ({ ...day, totals: [] })),
          by_month: months.map((m) => ({ ...m, totals: [] })),
        },
        security: { by_severity: { info: 0, warning: 0, critical: 0 }, recent: [] },
      },
    }));
    await openOverview();
    expect(
      await (await section('Revenue')).findByText('No revenue yet', {}, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(
      (await section('Revenue, last 30 days')).getByText(
        'No payments yet. Revenue shows here once customers buy a paid plan.',
      ),
    ).toBeTruthy();
    expect((await section('Recent security events')).getByText(/^Nothing yet/)).toBeTruthy();
  });

  it('an answer of another shape is an error with Retry, not a crashed page', async () => {
    api.on('GET /admin/dashboard', () => ({
      json: { ...stats, generated_at: undefined, revenue: null },
      offContract: 'an answer of another shape, which the page must not draw',
    }));
    await openOverview();
    expect(
      await screen.findByText('Invalid response format from server', {}, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(screen.getByText(/The overview could not be loaded/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('a failure shows the server’s message with Retry; Refresh asks the server again, past the cache', async () => {
    api.on('GET /admin/dashboard', () => problem(503, 'Statistics are being rebuilt'));
    await openOverview();
    expect(await screen.findByText('Statistics are being rebuilt', {}, { timeout: 10_000 })).toBeTruthy();
    api.on('GET /admin/dashboard', () => ({ json: stats }));
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await (await section('Users')).findByText('1,234', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByText('Statistics are being rebuilt')).toBeNull();

    const before = api.calls('GET /admin/dashboard').length;
    api.on('GET /admin/dashboard', () => ({ json: { ...stats, users: { ...stats.users, total: 1235 } } }));
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(api.calls('GET /admin/dashboard').length).toBe(before + 1));
    expect(await (await section('Users')).findByText('1,235', {}, { timeout: 10_000 })).toBeTruthy();
  });

  it('shows the cards and summaries in German', async () => {
    await showLanguage('de');
    try {
      // The account's language is German: the portal shows it once signed in.
      const germanAdmin = {
        ...testUser,
        role: 'admin' as const,
        preferences: { ...testUser.preferences, language: 'de' as const },
      };
      api.on('GET /users/me', () => ({ json: germanAdmin }));
      api.on('GET /admin/dashboard', () => ({ json: stats }));
      const services = await servicesFor(api, 'admin');
      await services.tokens.setUser(germanAdmin);
      renderApp(services, '/admin');
      expect(
        await screen.findByText('Monatlich wiederkehrender Umsatz', {}, { timeout: 30_000 }),
      ).toBeTruthy();
      expect(screen.getByText('Aktive Lizenzen')).toBeTruthy();
      expect(
        await screen.findByText(
          '14 Testphasen in den letzten 12 Monaten gestartet; 5 davon wurden gekauft (36 %).',
          {},
          { timeout: 10_000 },
        ),
      ).toBeTruthy();
    } finally {
      await showLanguage('en');
    }
  });
});
