import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeApi, problem } from '../support/fake-api';
import { validLicenseStatus } from '../support/api-answers';
import {
  chat,
  LICENSE_ID,
  LICENSE_KEY,
  license,
  openAsUser,
  proPlan,
  SLOW,
  startLicenseApi,
  THIS_MACHINE,
} from './support-licenses/license-fixtures';

let api: FakeApi;
beforeEach(async () => {
  api = await startLicenseApi();
});
afterEach(() => api.close());

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
      history: [
        { date: daysAgo(3), feature_id: 'f-chat', key: 'ai_chat', amount: 12 },
        { date: today, feature_id: 'f-chat', key: 'ai_chat', amount: 25 },
      ],
    },
  }));
}

const tile = async (name: string) => within(await screen.findByRole('region', { name }, SLOW));

describe('/dashboard', () => {
  it('shows the plan, this machine’s license status, seats, usage with a chart, and quick actions', async () => {
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

    const status = await tile('License status');
    expect(await status.findByText('Valid', undefined, SLOW)).toBeTruthy();
    expect(status.getByTestId('license-status-message').textContent).toBe('License is valid');
    // The check is for this browser's id and the key it keeps.
    const [check] = api.calls('GET /licensing/status');
    expect(check?.query.get('hardware_id')).toBe(THIS_MACHINE);
    expect(check?.query.get('license_key')).toBe(LICENSE_KEY);

    const seats = await tile('Seats');
    expect(seats.getByTestId('seats-summary').textContent).toBe('2 of 3');
    expect(seats.getByRole('link', { name: 'Manage machines' }).getAttribute('href')).toBe(
      `/licenses/${LICENSE_ID}`,
    );

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
    expect(actions.getByRole('link', { name: 'Activate this machine' }).getAttribute('href')).toBe(
      '/licenses',
    );
    expect(actions.getByRole('link', { name: 'Download the app' }).getAttribute('href')).toBe(
      `/licenses/${LICENSE_ID}#downloads`,
    );
    expect(actions.getByRole('link', { name: 'Upgrade plan' }).getAttribute('href')).toBe('/purchase');
  });

  it('this machine without a key: “Not activated here” with the not-configured message, and the way to activate', async () => {
    withProLicense();
    await openAsUser(api, '/dashboard');
    const status = await tile('License status');
    expect(await status.findByText('Not activated here', undefined, SLOW)).toBeTruthy();
    expect(status.getByTestId('license-status-message').textContent).toBe('No license configured');
    expect(status.getByRole('link', { name: 'Activate this machine' }).getAttribute('href')).toBe(
      '/licenses',
    );
    expect(api.calls('GET /licensing/status')).toHaveLength(0);
  });

  it('a refused check shows the server’s reason as not valid', async () => {
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
    const status = await tile('License status');
    expect(await status.findByText('Not valid', undefined, SLOW)).toBeTruthy();
    expect(status.getByTestId('license-status-message').textContent).toBe(
      'This license was revoked: chargeback. Contact support if you think this is a mistake.',
    );
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
      json: { license_id: LICENSE_ID, usage_info: { features: [chat({ used: 5 })] }, history: [] },
    }));
    await userEvent.setup().click(usage.getByRole('button', { name: 'Try again' }));
    expect(
      await usage.findByRole('progressbar', { name: 'AI chat: 5 of 100 messages used' }, SLOW),
    ).toBeTruthy();
  });
});
