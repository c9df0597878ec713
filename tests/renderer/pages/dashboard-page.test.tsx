import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeApi, problem } from '../support/fake-api';
import { validLicenseStatus } from '../support/api-answers';
import { localStorageKeys } from '../../../src/shared/storage-keys';
import {
  activation,
  bodyOf,
  chat,
  LICENSE_ID,
  LICENSE_KEY,
  license,
  openAsUser,
  OTHER_LICENSE_ID,
  proPlan,
  SLOW,
  startLicenseApi,
  THIS_MACHINE,
} from './support-licenses/license-fixtures';

let api: FakeApi;
beforeEach(async () => {
  api = await startLicenseApi();
});
afterEach(async () => {
  // A toast outlives its test otherwise: the notifications store is shared.
  await api.close();
});

const today = new Date().toISOString().slice(0, 10);
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

function withProLicense() {
  const pro = license({ activations_used: 2 });
  api.on('GET /licenses', () => ({ json: [pro] }));
  api.on('GET /licenses/current-plan', () => ({ json: { plan: proPlan, license: pro } }));
  api.on(`GET /licenses/${LICENSE_ID}/usage`, () => ({
    json: {
      license_id: LICENSE_ID,
      usage_info: { features: pro.usage_info.features },
      currency: 'INR',
      overage: [],
      packs: [],
      history: [
        { date: daysAgo(3), feature_id: 'f-chat', key: 'ai_chat', amount: 12 },
        { date: today, feature_id: 'f-chat', key: 'ai_chat', amount: 25 },
      ],
    },
  }));
}

const tile = async (name: string) => within(await screen.findByRole('region', { name }, SLOW));

describe('/dashboard', () => {
  it('a period with no usage says so in words instead of drawing an empty chart', async () => {
    withProLicense();
    api.on(`GET /licenses/${LICENSE_ID}/usage`, () => ({
      json: {
        license_id: LICENSE_ID,
        usage_info: { features: license().usage_info.features },
        overage: [],
        packs: [],
        history: [],
        currency: 'INR',
      },
    }));
    api.on('GET /licensing/status', () => ({
      json: validLicenseStatus(LICENSE_ID, { plan: license().plan }),
    }));
    await openAsUser(api, '/dashboard', { licenseKey: LICENSE_KEY });
    const usage = await tile('Usage this period');
    const chart = await usage.findByRole('figure', { name: 'Daily use over the last 30 days' }, SLOW);
    expect(within(chart).getByText(/^No usage yet in this period/)).toBeTruthy();
    expect(chart.querySelector('svg')).toBeNull();
    expect(within(chart).getByTestId('usage-chart-summary').textContent).toBe('AI chat: no use.');
  });

  it('shows the plan, this machine (activated with which license), seats, the licenses, usage with a chart, and quick actions', async () => {
    withProLicense();
    api.on('GET /licensing/status', () => ({
      json: validLicenseStatus(LICENSE_ID, { plan: license().plan }),
    }));
    await openAsUser(api, '/dashboard', { licenseKey: LICENSE_KEY });
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' }, SLOW)).toBeTruthy();

    const plan = await tile('Current plan');
    expect(await plan.findByTestId('current-plan-name', undefined, SLOW)).toHaveProperty(
      'textContent',
      'Pro',
    );
    expect(plan.getByText(/per month/)).toBeTruthy();
    expect(plan.getByText(/^Expires on/)).toBeTruthy();

    const machine = await tile('This machine');
    expect(await machine.findByText('Activated here', undefined, SLOW)).toBeTruthy();
    expect(machine.getByTestId('machine-summary').textContent).toBe('This machine uses your Pro license.');
    expect(machine.getByRole('link', { name: 'Open the license' }).getAttribute('href')).toBe(
      `/licenses/${LICENSE_ID}`,
    );
    expect(machine.queryByRole('button', { name: 'Activate this machine' })).toBeNull();
    // The check is for this browser's id and the key it keeps.
    const [check] = api.calls('GET /licensing/status');
    expect(check?.query.get('hardware_id')).toBe(THIS_MACHINE);
    expect(check?.query.get('license_key')).toBe(LICENSE_KEY);

    const seats = await tile('Seats');
    expect(seats.getByTestId('seats-summary').textContent).toBe('2 of 3');
    expect(seats.getByRole('link', { name: 'Manage machines' }).getAttribute('href')).toBe(
      `/licenses/${LICENSE_ID}`,
    );

    const held = within((await tile('Your licenses')).getByRole('article', { name: 'Pro license' }));
    expect(held.getByText('Active')).toBeTruthy();
    expect(held.getByText('On this machine')).toBeTruthy();
    expect(held.queryByTestId('license-flag')).toBeNull();

    const usage = await tile('Usage this period');
    expect(await usage.findByText('AI chat', undefined, SLOW)).toBeTruthy();
    expect(usage.getByRole('progressbar', { name: 'AI chat: 37 of 100 messages used' })).toBeTruthy();
    expect(usage.getByText(/63 messages left · resets on/)).toBeTruthy();
    // On/off features are not metered: no meter for Voice commands.
    expect(usage.queryByText('Voice commands')).toBeNull();
    const chart = usage.getByRole('figure', { name: 'Daily use over the last 30 days' });
    expect(within(chart).getByTestId('usage-chart-summary').textContent).toMatch(
      /^AI chat: 37 in total, most on .+ \(25\)\.$/,
    );
    expect(api.calls(`GET /licenses/${LICENSE_ID}/usage`)[0]?.query.get('days')).toBe('30');

    const actions = await tile('Quick actions');
    expect(actions.getByRole('link', { name: 'Manage licenses' }).getAttribute('href')).toBe('/licenses');
    expect(actions.getByRole('link', { name: 'Download the app' }).getAttribute('href')).toBe(
      `/licenses/${LICENSE_ID}#downloads`,
    );
    expect(actions.getByRole('link', { name: 'Upgrade plan' }).getAttribute('href')).toBe('/purchase');
  });

  it('this machine without a key: “Not activated here” apart from the active license, and one click activates it', async () => {
    withProLicense();
    let activated = false;
    api.on('POST /licenses/activate', () => {
      activated = true;
      return {
        status: 201,
        json: {
          ...license({ activations_used: 3 }),
          activation: activation({ hardware_id: THIS_MACHINE }),
          lease: 'x.y.z',
          lease_expires_at: '2030-01-01T00:00:00.000Z',
          message: 'This machine is now activated',
        },
      };
    });
    api.on('GET /licensing/status', () =>
      activated
        ? { json: validLicenseStatus(LICENSE_ID, { plan: license().plan }) }
        : problem(500, 'not expected before the activation'),
    );
    const { services } = await openAsUser(api, '/dashboard');
    const machine = await tile('This machine');
    expect(await machine.findByText('Not activated here', undefined, SLOW)).toBeTruthy();
    expect(machine.getByTestId('machine-summary').textContent).toBe(
      'No license is activated on this machine.',
    );
    // The license's own status is elsewhere, in its own words: no "No license configured" beside "Active".
    expect(machine.queryByText('No license configured')).toBeNull();
    expect(machine.queryByText('Active')).toBeNull();
    const held = within((await tile('Your licenses')).getByRole('article', { name: 'Pro license' }));
    expect(held.getByText('Active')).toBeTruthy();
    expect(held.queryByText('On this machine')).toBeNull();
    expect(api.calls('GET /licensing/status')).toHaveLength(0);

    // One license with a free seat: the button activates it directly, with its key, for this browser.
    expect(machine.getByTestId('machine-next-step').textContent).toBe(
      'Takes one seat of your Pro license (2 of 3 seats in use).',
    );
    await userEvent.setup().click(machine.getByRole('button', { name: 'Activate this machine' }));
    expect(await screen.findByText('This machine is activated', undefined, SLOW)).toBeTruthy();
    expect(screen.getByText('It now uses your Pro license.')).toBeTruthy();
    expect(bodyOf(api, 'POST /licenses/activate')).toMatchObject({
      license_key: LICENSE_KEY,
      hardware_id: THIS_MACHINE,
    });
    expect(services.local.getItem(localStorageKeys.licenseKey)).toBe(LICENSE_KEY);
    expect(await machine.findByText('Activated here', undefined, SLOW)).toBeTruthy();
    expect(machine.getByTestId('machine-summary').textContent).toBe('This machine uses your Pro license.');
  });

  it('several licenses that could be used here: it asks which before activating', async () => {
    const pro = license({ activations_used: 1 });
    const team = license({
      license_id: OTHER_LICENSE_ID,
      license_key: 'ABCDE-FGHJK-MNPQR-STVWX-YZ234',
      plan: { id: 'plan-team', code: 'team-yearly', name: 'Team', billing_interval: 'year' },
      created_at: '2025-11-01T09:00:00.000Z',
    });
    api.on('GET /licenses', () => ({ json: [pro, team] }));
    api.on('GET /licenses/current-plan', () => ({ json: { plan: proPlan, license: pro } }));
    api.on(`GET /licenses/${LICENSE_ID}/usage`, () => ({
      json: {
        license_id: LICENSE_ID,
        usage_info: { features: pro.usage_info.features },
        overage: [],
        packs: [],
        history: [],
        currency: 'INR',
      },
    }));
    api.on('POST /licenses/activate', () => ({
      status: 201,
      json: {
        ...team,
        activation: activation({ license_id: OTHER_LICENSE_ID, hardware_id: THIS_MACHINE }),
        lease: 'x.y.z',
        lease_expires_at: '2030-01-01T00:00:00.000Z',
        message: 'This machine is now activated',
      },
    }));
    api.on('GET /licensing/status', () => ({
      json: validLicenseStatus(OTHER_LICENSE_ID, { plan: team.plan }),
    }));
    await openAsUser(api, '/dashboard');
    const machine = await tile('This machine');
    const user = userEvent.setup();
    await user.click(await machine.findByRole('button', { name: 'Activate this machine' }, SLOW));
    expect(await machine.findByText('Choose the license this machine should use')).toBeTruthy();
    expect(api.calls('POST /licenses/activate')).toHaveLength(0);

    const choice = machine.getByRole('combobox', { name: 'License to use here' });
    expect([...(choice as HTMLSelectElement).options].map((option) => option.textContent)).toEqual([
      'Choose one of your licenses',
      // Active ones, the newest first.
      'Team · ABCDE-•••••-•••••-•••••-YZ234 · 1 of 3 seats in use',
      'Pro · JSA7W-•••••-•••••-•••••-WY4K5 · 1 of 3 seats in use',
    ]);
    await user.selectOptions(choice, OTHER_LICENSE_ID);
    await user.click(machine.getByRole('button', { name: 'Activate this machine' }));
    expect(await machine.findByText('Activated here', undefined, SLOW)).toBeTruthy();
    expect(bodyOf(api, 'POST /licenses/activate')['license_key']).toBe(team.license_key);
    expect(machine.getByTestId('machine-summary').textContent).toBe('This machine uses your Team license.');
  });

  it('flags a suspended, a revoked and an expiring license, each with what to do', async () => {
    const soon = new Date(Date.now() + 3 * 86_400_000 + 3_600_000).toISOString();
    const licenses = [
      license({ expires_at: soon }),
      license({ license_id: OTHER_LICENSE_ID, status: 'suspended' }),
      license({
        license_id: '8b3c4d5e-6f7a-4b2c-8d3e-4f5a6b7c8d9e',
        status: 'revoked',
        revoked_reason: 'Refunded on request.',
        revoked_at: '2025-11-02T10:00:00.000Z',
        plan: { id: 'plan-team', code: 'team-yearly', name: 'Team', billing_interval: 'year' },
      }),
    ];
    api.on('GET /licenses', () => ({ json: licenses }));
    api.on('GET /licenses/current-plan', () => ({ json: { plan: proPlan, license: licenses[0] } }));
    api.on(`GET /licenses/${LICENSE_ID}/usage`, () => ({
      json: {
        license_id: LICENSE_ID,
        usage_info: { features: [] },
        overage: [],
        packs: [],
        history: [],
        currency: 'INR',
      },
    }));
    await openAsUser(api, '/dashboard');
    const list = await tile('Your licenses');
    const flags = await list.findAllByTestId('license-flag', undefined, SLOW);
    expect(flags.map((flag) => flag.getAttribute('data-flag'))).toEqual(['expiring', 'suspended', 'revoked']);
    const [expiring, suspended, revoked] = flags.map((flag) => within(flag));
    expect(expiring?.getByText(/^Expires in \d days$/)).toBeTruthy();
    expect(expiring?.getByRole('link', { name: 'Renew: Pro license' }).getAttribute('href')).toBe(
      '/purchase',
    );
    expect(suspended?.getByText('This license is suspended')).toBeTruthy();
    expect(suspended?.getByRole('link', { name: 'Contact support: Pro license' }).getAttribute('href')).toBe(
      '/support',
    );
    expect(revoked?.getByText('This license was revoked')).toBeTruthy();
    expect(revoked?.getByText(/^Reason given: Refunded on request\. /)).toBeTruthy();
    expect(revoked?.getByRole('link', { name: 'Contact support: Team license' })).toBeTruthy();
    // Nothing here depends on a subscription: none is read.
    expect(api.calls('GET /subscriptions')).toHaveLength(0);
  });

  it('a license suspended because its subscription went unpaid says to update the payment method', async () => {
    const suspended = license({ status: 'suspended', subscription_id: 'sub-1' });
    api.on('GET /licenses', () => ({ json: [suspended] }));
    api.on('GET /licenses/current-plan', () => ({ json: { plan: null, license: null } }));
    api.on('GET /subscriptions', () => ({
      json: {
        data: [
          {
            id: 'sub-1',
            provider_subscription_id: 'sub_sandbox_abc',
            provider: 'sandbox',
            sandbox: true,
            status: 'suspended',
            plan: {
              id: 'plan-pro',
              code: 'pro-monthly',
              name: 'Pro',
              billing_interval: 'month',
              price_minor: 1999,
              currency: 'USD',
            },
            license_id: LICENSE_ID,
            current_period_start: '2025-10-01T09:00:00.000Z',
            current_period_end: '2025-11-01T09:00:00.000Z',
            next_charge: { at: '2025-11-01T09:00:00.000Z', amount_minor: 1999, currency: 'USD' },
            cancel_at_period_end: false,
            cancel_requested_at: null,
            ended_at: null,
            grace_ends_at: '2025-11-08T09:00:00.000Z',
            failed_attempts: 3,
            payment_method: 'Sandbox card •••• 0002',
            sandbox_card: 'declines',
            credit_minor: 0,
            cancel_now_refund_minor: 0,
            trial_ends_at: null,
            pause: null,
            cancel_credit_refund_minor: 0,
            created_at: '2025-10-01T09:00:00.000Z',
          },
        ],
      },
    }));
    await openAsUser(api, '/dashboard');
    const list = await tile('Your licenses');
    const flag = within(await list.findByTestId('license-flag', undefined, SLOW));
    expect(await flag.findByText('Suspended: the subscription is unpaid', undefined, SLOW)).toBeTruthy();
    expect(flag.getByRole('link', { name: 'Update payment method: Pro license' }).getAttribute('href')).toBe(
      '/subscriptions',
    );
    expect(flag.queryByRole('link', { name: /^Contact support/ })).toBeNull();
    // Suspended: nothing this machine could be activated with.
    const machine = await tile('This machine');
    expect((await machine.findByTestId('machine-next-step', undefined, SLOW)).textContent).toBe(
      'None of your licenses can be used right now. Get a plan to use this machine.',
    );
  });

  it('a refused check shows the server’s reason, and the licenses that could be used instead', async () => {
    withProLicense();
    api.on('GET /licensing/status', () => ({
      status: 403,
      json: {
        detail: 'x',
        message: 'This license was revoked: chargeback. Contact support if you think this is a mistake.',
        code: 'license_revoked',
        valid: false,
        status: 'revoked',
        requires_activation: false,
      },
    }));
    await openAsUser(api, '/dashboard', { licenseKey: LICENSE_KEY });
    const status = await tile('This machine');
    expect(await status.findByText('Not activated here', undefined, SLOW)).toBeTruthy();
    expect(status.getByTestId('license-status-message').textContent).toBe(
      'This license was revoked: chargeback. Contact support if you think this is a mistake.',
    );
    expect(status.getByRole('button', { name: 'Activate this machine' })).toBeTruthy();
  });

  it('a user without a license gets the empty state: the free Base license and the paid plans', async () => {
    await openAsUser(api, '/dashboard');
    expect(await screen.findByRole('heading', { name: 'You have no license yet' }, SLOW)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Activate the free Base license' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See paid plans' }).getAttribute('href')).toBe('/purchase');
    expect(screen.queryByRole('region', { name: 'Usage this period' })).toBeNull();
    // No license yet: "download" leads to the licenses page.
    const actions = await tile('Quick actions');
    expect(actions.getByRole('link', { name: 'Download the app' }).getAttribute('href')).toBe('/licenses');
    expect(api.calls(`GET /licenses/${LICENSE_ID}/usage`)).toHaveLength(0);
  });

  it('a failed usage load says why and retries', async () => {
    withProLicense();
    api.on(`GET /licenses/${LICENSE_ID}/usage`, () => problem(500, 'Usage store unavailable'));
    await openAsUser(api, '/dashboard');
    const usage = await tile('Usage this period');
    expect(await usage.findByText('Usage store unavailable', undefined, SLOW)).toBeTruthy();
    api.on(`GET /licenses/${LICENSE_ID}/usage`, () => ({
      json: {
        license_id: LICENSE_ID,
        usage_info: { features: [chat({ used: 5 })] },
        overage: [],
        packs: [],
        history: [],
        currency: 'INR',
      },
    }));
    await userEvent.setup().click(usage.getByRole('button', { name: 'Try again' }));
    expect(
      await usage.findByRole('progressbar', { name: 'AI chat: 5 of 100 messages used' }, SLOW),
    ).toBeTruthy();
  });
});
