import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LicenseCheckResult, UsageLeft } from '../../../src/shared/bridge';
import { type FakeApi, testUser } from '../support/fake-api';
import { fakeUsageBridge } from '../support/fake-usage-bridge';
import { renderApp } from '../support/render-app';
import { tabServices } from '../support/services';
import {
  chat,
  LICENSE_ID,
  license,
  openAsUser,
  SLOW,
  startLicenseApi,
} from './support-licenses/license-fixtures';

/*
 * Issue 30, point 6's last part: inside the desktop app the Usage page (and the dashboard's machine
 * tile) shows what this machine may still use, read through `window.desktop.usage.left()` (a fake
 * bridge here; tests/e2e/usage-desktop.test.ts runs main's real handlers). In a browser nothing
 * changes.
 */

let api: FakeApi;
beforeEach(async () => {
  api = await startLicenseApi();
  api.on('GET /licenses', () => ({ json: [license()] }));
  api.on(`GET /licenses/${LICENSE_ID}/usage`, () => ({
    json: {
      license_id: LICENSE_ID,
      usage_info: { features: [chat()] },
      currency: 'INR',
      history: [],
      overage: [],
      packs: [],
    },
  }));
});
afterEach(async () => {
  await api.close();
});

const VALID: LicenseCheckResult = {
  valid: true,
  status: 'active',
  message: 'License is valid',
  license_id: LICENSE_ID,
};

const online = (left: number | null, queued = 0): UsageLeft => ({
  source: 'server',
  message: 'What the license server counts this period, less what this machine has not sent yet',
  features: [{ key: 'ai_chat', left, queued, period_end: '2025-12-01T00:00:00.000Z' }],
});

const offline = (left: number, queued: number): UsageLeft => ({
  source: 'reservation',
  message: 'Offline: what this machine’s license reserved for use offline, less what was used under it',
  features: [{ key: 'ai_chat', left, queued, period_end: '2025-12-01T00:00:00.000Z' }],
});

async function openInDesktop(bridge: ReturnType<typeof fakeUsageBridge>['bridge'], path: string) {
  const { services } = tabServices(api.baseURL, { bridge });
  const issued = api.issue();
  await services.tokens.save({
    accessToken: issued.access_token,
    refreshToken: issued.refresh_token,
    user: testUser,
  });
  return renderApp(services, path);
}

const machineSection = async () =>
  within(await screen.findByRole('region', { name: 'On this machine' }, SLOW));

const dateWords = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso));

describe('/usage inside the desktop app', () => {
  it('online: what is left as the server counts it; offline after "Check again": the machine’s allowance and what waits to upload', async () => {
    const { bridge, state } = fakeUsageBridge({ check: VALID, left: online(92) });
    await openInDesktop(bridge, '/usage');
    const section = await machineSection();
    expect(section.getByTestId('machine-usage-source').textContent).toBe(
      'Online: counted by the license server',
    );
    const feature = within(section.getByRole('article', { name: 'AI chat on this machine' }));
    expect(feature.getByTestId('machine-usage-left').textContent).toBe('92 messages left');
    expect(feature.getByTestId('machine-usage-queued').textContent).toBe('Nothing waiting to upload');
    expect(feature.getByText(`Resets on ${dateWords('2025-12-01T00:00:00.000Z')}`)).toBeTruthy();
    expect(section.queryByTestId('machine-usage-waiting')).toBeNull();
    // The license's own card is there too: the page is the same page with one more section.
    expect(await screen.findByRole('article', { name: 'AI chat usage' }, SLOW)).toBeTruthy();

    // The app went offline: "Check again", from the keyboard, reads main's answer anew.
    state.left = offline(5, 5);
    const user = userEvent.setup();
    const again = section.getByRole('button', { name: 'Check again' });
    again.focus();
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(section.getByTestId('machine-usage-source').textContent).toBe(
        'Offline: this machine’s allowance',
      ),
    );
    expect(state.leftCalls).toBeGreaterThanOrEqual(2);
    const now = within(section.getByRole('article', { name: 'AI chat on this machine' }));
    expect(now.getByTestId('machine-usage-left').textContent).toBe('5 messages left');
    expect(now.getByTestId('machine-usage-queued').textContent).toBe('5 messages waiting to upload');
    expect(now.getByText(`For the period ending ${dateWords('2025-12-01T00:00:00.000Z')}`)).toBeTruthy();
    expect(section.getByTestId('machine-usage-message').textContent).toMatch(/^Offline: /);
    expect(section.getByTestId('machine-usage-waiting')).toBeTruthy();
    // The portal reads; it never reports use itself.
    expect(state.reportCalls).toBe(0);
  });

  it('a feature nothing limits reads "No limit"; a key no license here names is shown by its key', async () => {
    const { bridge } = fakeUsageBridge({
      check: VALID,
      left: {
        ...online(null),
        features: [
          { key: 'ai_chat', left: null, queued: 2, period_end: null },
          { key: 'ai_tokens', left: 1200, queued: 0, period_end: null },
        ],
      },
    });
    await openInDesktop(bridge, '/usage');
    const section = await machineSection();
    const chatCard = within(section.getByRole('article', { name: 'AI chat on this machine' }));
    expect(chatCard.getByTestId('machine-usage-left').textContent).toBe('No limit');
    expect(chatCard.getByTestId('machine-usage-queued').textContent).toBe('2 messages waiting to upload');
    const other = within(section.getByRole('article', { name: 'ai_tokens on this machine' }));
    expect(other.getByTestId('machine-usage-left').textContent).toBe('1,200 uses left');
  });

  it('no license on this machine: says so in main’s words, with no features', async () => {
    const { bridge } = fakeUsageBridge({
      check: { valid: false, status: 'not_configured', message: 'No license configured' },
      left: { source: 'none', message: 'No license configured', features: [] },
    });
    await openInDesktop(bridge, '/usage');
    const section = await machineSection();
    expect(section.getByTestId('machine-usage-source').textContent).toBe('Nothing to go by');
    expect(section.getByTestId('machine-usage-message').textContent).toBe('No license configured');
    expect(section.queryAllByRole('article')).toHaveLength(0);
  });

  it('main cannot answer: says why and tries again', async () => {
    let fail = true;
    const { bridge } = fakeUsageBridge({
      check: VALID,
      left: async () => {
        if (fail) throw new Error('The usage queue could not be read');
        return online(40);
      },
    });
    await openInDesktop(bridge, '/usage');
    const alert = await screen.findByText('Could not read this machine’s usage', undefined, SLOW);
    expect(screen.getByText('The usage queue could not be read')).toBeTruthy();
    fail = false;
    const notice = alert.closest('[role="alert"]') as HTMLElement | null;
    await userEvent.setup().click(within(notice ?? document.body).getByRole('button', { name: 'Try again' }));
    const section = await machineSection();
    expect(section.getByTestId('machine-usage-left').textContent).toBe('40 messages left');
  });

  it('a desktop build from before usage was metered, and the browser: no section, the page as before', async () => {
    const { bridge } = fakeUsageBridge({ check: VALID, usage: false });
    const first = await openInDesktop(bridge, '/usage');
    expect(await screen.findByRole('article', { name: 'AI chat usage' }, SLOW)).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'On this machine' })).toBeNull();
    first.unmount();

    await openAsUser(api, '/usage');
    expect(await screen.findByRole('article', { name: 'AI chat usage' }, SLOW)).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'On this machine' })).toBeNull();
    expect(screen.queryByText(/waiting to upload/)).toBeNull();
  });
});

describe('/dashboard inside the desktop app', () => {
  it('the machine tile says in one line what is left here and what waits to upload', async () => {
    const { bridge } = fakeUsageBridge({ check: VALID, left: online(63, 3) });
    await openInDesktop(bridge, '/dashboard');
    const tile = within(await screen.findByRole('region', { name: 'This machine' }, SLOW));
    expect((await tile.findByTestId('machine-usage-line', undefined, SLOW)).textContent).toBe(
      'AI chat: 63 messages left · 3 waiting to upload.',
    );
  });

  it('offline, the line says it is the offline allowance; in a browser there is no line', async () => {
    const { bridge } = fakeUsageBridge({ check: VALID, left: offline(4, 6) });
    const first = await openInDesktop(bridge, '/dashboard');
    const tile = within(await screen.findByRole('region', { name: 'This machine' }, SLOW));
    expect((await tile.findByTestId('machine-usage-line', undefined, SLOW)).textContent).toBe(
      'AI chat: 4 messages left · 6 waiting to upload (offline allowance).',
    );
    first.unmount();

    await openAsUser(api, '/dashboard');
    await screen.findByRole('region', { name: 'This machine' }, SLOW);
    expect(screen.queryByTestId('machine-usage-line')).toBeNull();
  });
});
