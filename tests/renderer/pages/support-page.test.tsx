import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { localStorageKeys } from '../../../src/shared/storage-keys';
import type { DesktopBridge, LicenseCheckResult } from '../../../src/shared/bridge';
import { maskLicenseKey } from '../../../src/renderer/src/features/users/support-details';
import { validLicenseStatus } from '../support/api-answers';
import { FakeApi, testUser } from '../support/fake-api';
import { fakeUpdateBridge } from '../support/fake-update-bridge';
import { offlineBridgeMethods } from '../support/fake-offline-bridge';
import { machineTrialBridgeMethods } from '../support/fake-machine-trial-bridge';
import { renderApp, servicesFor } from '../support/render-app';
import { makeLicense } from '../support/signed-in';
import { tabServices } from '../support/services';

const SLOW = { timeout: 8000 };
const KEY = 'ABCDE-FGHJK-MNPQR-STVWX-YZ234';

let api: FakeApi;
let copied: string[];

beforeEach(async () => {
  api = await new FakeApi().start();
  api.on('GET /health', () => ({
    json: { status: 'ok', database: 'ok', version: '1.4.2', uptime_seconds: 10 },
  }));
  api.on('GET /licenses', () => ({ json: [] }));
  copied = [];
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: { writeText: async (text: string) => void copied.push(text) },
  });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await api.close();
});

async function openSupport(options: { licenseKey?: string } = {}) {
  const services = await servicesFor(api, 'user');
  if (options.licenseKey) services.local.setItem(localStorageKeys.licenseKey, options.licenseKey);
  const view = renderApp(services, '/support');
  await screen.findByRole('heading', { level: 1, name: 'Support' }, { timeout: 10_000 });
  return { ...view, services };
}

const details = async () => {
  const block = await screen.findByTestId('support-details', {}, SLOW);
  await waitFor(() => expect(block.textContent).toContain('1.4.2'), SLOW);
  return block;
};

describe('support page: license troubleshooting', () => {
  it('with no key stored and no license yet, says so without asking the server', async () => {
    await openSupport();
    const check = within(screen.getByRole('region', { name: 'License check' }));
    await waitFor(
      () =>
        expect(check.getByTestId('support-license-status').textContent).toBe(
          'Your account has no license yet.',
        ),
      SLOW,
    );
    expect(check.getByText('No license yet')).toBeTruthy();
    expect(check.queryByText(/not configured/i)).toBeNull();
    expect(check.getByRole('link', { name: 'Licenses page' }).getAttribute('href')).toBe('/licenses');
    expect(check.getByRole('link', { name: 'Purchase page' }).getAttribute('href')).toBe('/purchase');
    expect(api.calls('GET /licensing/status')).toHaveLength(0);
  });

  it('with no key stored here, names the account’s licenses and their state, never "not configured"', async () => {
    api.on('GET /licenses', () => ({
      json: [
        makeLicense('L1', {
          plan_id: 'plan-pro',
          plan: { id: 'plan-pro', code: 'pro', name: 'Pro', billing_interval: 'month' },
        }),
        makeLicense('L2', { status: 'expired' }),
      ],
    }));
    await openSupport();
    const check = within(screen.getByRole('region', { name: 'License check' }));
    await waitFor(
      () =>
        expect(check.getByTestId('support-license-status').textContent).toBe(
          'Your account has 2 licenses (1 active); none is activated on this browser.',
        ),
      SLOW,
    );
    expect(check.getByText('Not activated on this browser')).toBeTruthy();
    const listed = within(check.getByRole('list', { name: 'Your licenses' }));
    expect(listed.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Pro: Active',
      'Base: Expired',
    ]);
    expect(check.queryByText(/not configured/i)).toBeNull();
    expect(api.calls('GET /licensing/status')).toHaveLength(0);

    const block = await details();
    await waitFor(() => expect(block.textContent).toContain('Pro (active), Base (expired)'), SLOW);
    expect(block.textContent).toContain('no license key on this browser');
    expect(block.textContent).not.toContain('not_configured');
  });

  it("checks a stored key with GET /licensing/status and says what to do about the server's answer", async () => {
    api.on('GET /licensing/status', () => ({
      status: 403,
      json: {
        valid: false,
        status: 'revoked',
        message: 'This license was revoked: refund issued',
        requires_activation: false,
        detail: 'This license was revoked: refund issued',
        code: 'license_revoked',
      },
    }));
    await openSupport({ licenseKey: KEY });
    const check = within(screen.getByRole('region', { name: 'License check' }));
    expect((await check.findByTestId('support-license-status', {}, SLOW)).textContent).toBe(
      'This license was revoked: refund issued',
    );
    expect(check.getByText('Not valid')).toBeTruthy();
    expect(check.getByText(/revoked for good/)).toBeTruthy();
    const call = api.calls('GET /licensing/status')[0];
    expect(call?.query.get('license_key')).toBe(KEY);

    api.on('GET /licensing/status', () => ({ json: validLicenseStatus('L1') }));
    await userEvent.click(check.getByRole('button', { name: 'Check license status' }));
    await waitFor(
      () => expect(check.getByTestId('support-license-status').textContent).toBe('License is valid'),
      SLOW,
    );
    expect(check.getByText('Valid')).toBeTruthy();
    expect(api.calls('GET /licensing/status')).toHaveLength(2);
  });
});

describe('support page: a paused license', () => {
  it('says when the subscription resumes and where to resume it sooner', async () => {
    api.on('GET /licensing/status', () => ({
      status: 403,
      json: {
        valid: false,
        status: 'paused',
        message:
          'This license is paused: its subscription is paused until Feb 20, 2027, when it resumes and the license works again. Resume it sooner on the Subscriptions page.',
        requires_activation: false,
        resumes_at: '2027-02-20T10:00:00.000Z',
        detail: 'This license is paused',
        code: 'license_paused',
      },
    }));
    await openSupport({ licenseKey: KEY });
    const check = within(screen.getByRole('region', { name: 'License check' }));
    expect((await check.findByTestId('support-license-status', {}, SLOW)).textContent).toMatch(
      /^This license is paused: its subscription is paused until Feb 20, 2027/,
    );
    expect(check.getByText('Paused')).toBeTruthy();
    const step = check.getByText(/Its subscription is paused; it resumes by itself on Feb 20, 2027/);
    expect(step.textContent).toContain('resume the subscription on the Subscriptions page');
    expect(within(step).getByRole('link', { name: 'Subscriptions page' }).getAttribute('href')).toBe(
      '/subscriptions',
    );
  });
});

describe('support page: app and account information', () => {
  it('lists version, platform, browser id, user and the masked key, and copies them in one block', async () => {
    const { services } = await openSupport({ licenseKey: KEY });
    const block = await details();
    const text = block.textContent ?? '';
    const hardwareId = services.local.getItem(localStorageKeys.hardwareId);
    expect(hardwareId).toBeTruthy();
    expect(text).toContain('Desktop AI Assistant web portal 1.4.2');
    expect(text).toContain(hardwareId);
    expect(text).toContain(testUser.id);
    expect(text).toContain(testUser.email);
    expect(text).toContain('ABCDE-•••••-•••••-•••••-YZ234');
    expect(text).not.toContain(KEY);

    await userEvent.click(screen.getByRole('button', { name: 'Copy details' }));
    await waitFor(() => expect(copied).toHaveLength(1));
    expect(copied[0]).toContain(`User id: ${testUser.id}`);
    expect(copied[0]).toContain('License key: ABCDE-•••••-•••••-•••••-YZ234');
    expect(copied[0]).not.toContain(KEY);
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeTruthy();
  });

  it('in the desktop app: its version, platform and hardware id, and the status from main', async () => {
    const status: LicenseCheckResult = {
      valid: true,
      status: 'active',
      message: 'License is valid',
      requires_activation: false,
    };
    const bridge = {
      getHardwareId: async () => 'h'.repeat(64),
      hasSession: async () => false,
      forgetSession: async () => undefined,
      checkLicenseStatus: async () => status,
      getLicenseKey: async () => KEY,
      setLicenseKey: async () => undefined,
      getAppInfo: async () => ({
        version: '2.0.1',
        platform: 'win32',
        serverUrl: 'https://portal.example.com',
        tokenStorage: 'os-keychain' as const,
      }),
      ...fakeUpdateBridge().bridge,
      ...offlineBridgeMethods,
      ...machineTrialBridgeMethods,
    } satisfies DesktopBridge;
    const { services } = tabServices(api.baseURL, { bridge });
    const issued = api.issue();
    await services.tokens.save({
      accessToken: issued.access_token,
      refreshToken: issued.refresh_token,
      user: testUser,
    });
    renderApp(services, '/support');
    const block = await screen.findByTestId('support-details', {}, { timeout: 10_000 });
    await waitFor(() => expect(block.textContent).toContain('Desktop AI Assistant desktop 2.0.1'), SLOW);
    expect(block.textContent).toContain('Windows (desktop app)');
    expect(block.textContent).toContain('h'.repeat(64));
    expect(block.textContent).toContain('https://portal.example.com');
    expect(screen.getByTestId('support-license-status').textContent).toBe('License is valid');
    expect(api.calls('GET /licensing/status')).toHaveLength(0);
  });

  it('masks keys of any shape', () => {
    expect(maskLicenseKey(KEY)).toBe('ABCDE-•••••-•••••-•••••-YZ234');
    expect(maskLicenseKey('LEGACYKEY12345')).toBe('LEGA…2345');
    expect(maskLicenseKey('short')).toBe('•••••');
  });
});

describe('support page: help and contact', () => {
  it('opens a help topic', async () => {
    await openSupport();
    const topic = screen.getByRole('button', { name: 'Move a license to another machine' });
    expect(topic.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(topic);
    expect(topic.getAttribute('aria-expanded')).toBe('true');
    const panel = document.getElementById(topic.getAttribute('aria-controls') ?? '');
    expect(panel?.textContent).toContain('deactivate the machine you no longer use');
    await waitFor(() => expect(panel?.closest('[aria-hidden="true"]')).toBeNull());
  });

  it('checks the request, sends it to the server with the details only when ticked, and says what happens next', async () => {
    let sequence = 0;
    api.on('POST /support/requests', (request) => {
      sequence += 1;
      const body = JSON.parse(request.body) as { diagnostics?: string };
      return {
        status: 201,
        json: {
          id: `req-${sequence}`,
          reference: `SR-ABCDEFG${sequence}`,
          reply_to: testUser.email,
          diagnostics_included: body.diagnostics !== undefined,
          created_at: '2026-11-27T10:00:00.000Z',
        },
      };
    });
    await openSupport({ licenseKey: KEY });
    await details();
    const contact = within(screen.getByRole('region', { name: 'Contact support' }));
    await userEvent.click(contact.getByRole('button', { name: 'Send request' }));
    expect(await contact.findByText('Write a short subject')).toBeTruthy();
    expect(contact.getByText(/Describe the problem in a few words/)).toBeTruthy();
    expect(api.calls('POST /support/requests')).toHaveLength(0);

    // Sent without the details: the box starts unticked.
    await userEvent.selectOptions(contact.getByLabelText('Topic'), 'Billing and payments');
    await userEvent.type(contact.getByLabelText(/^Subject/), 'Charged twice');
    await userEvent.type(contact.getByLabelText(/^Message/), 'My card was charged twice for Pro yesterday.');
    await userEvent.click(contact.getByRole('button', { name: 'Send request' }));
    const sent = within(await contact.findByTestId('support-request-sent'));
    expect(sent.getByText('SR-ABCDEFG1')).toBeTruthy();
    expect(sent.getByText(testUser.email)).toBeTruthy();
    expect(sent.getByText('The app and account information was not sent.')).toBeTruthy();
    const first = JSON.parse(api.calls('POST /support/requests')[0]!.body) as Record<string, unknown>;
    expect(first).toEqual({
      topic: 'Billing and payments',
      subject: 'Charged twice',
      message: 'My card was charged twice for Pro yesterday.',
    });

    // Another request, with the details ticked: the block goes with it.
    await userEvent.click(sent.getByRole('button', { name: 'Write another request' }));
    await userEvent.type(contact.getByLabelText(/^Subject/), 'Activation fails');
    await userEvent.type(
      contact.getByLabelText(/^Message/),
      'Activating on my laptop says the key is unknown.',
    );
    await userEvent.click(contact.getByRole('checkbox', { name: /Include the app and account information/ }));
    await userEvent.click(contact.getByRole('button', { name: 'Send request' }));
    const again = within(await contact.findByTestId('support-request-sent'));
    expect(again.getByText('SR-ABCDEFG2')).toBeTruthy();
    expect(again.getByText('The app and account information was sent with it.')).toBeTruthy();
    const second = JSON.parse(api.calls('POST /support/requests')[1]!.body) as { diagnostics?: string };
    expect(second.diagnostics).toContain(`User id: ${testUser.id}`);
    expect(second.diagnostics).toContain('License key: ABCDE-•••••-•••••-•••••-YZ234');
    expect(second.diagnostics).not.toContain(KEY);
  });

  it("shows the server's refusal and keeps what was typed", async () => {
    api.on('POST /support/requests', () => ({
      status: 429,
      json: {
        detail: 'Too many requests. Try again in 1 hour.',
        message: 'Too many requests. Try again in 1 hour.',
        code: 'rate_limited',
      },
    }));
    await openSupport();
    const contact = within(screen.getByRole('region', { name: 'Contact support' }));
    await userEvent.type(contact.getByLabelText(/^Subject/), 'Charged twice');
    await userEvent.type(contact.getByLabelText(/^Message/), 'My card was charged twice for Pro yesterday.');
    await userEvent.click(contact.getByRole('button', { name: 'Send request' }));
    expect(await contact.findByText('Too many requests. Try again in 1 hour.', {}, SLOW)).toBeTruthy();
    expect((contact.getByLabelText(/^Subject/) as HTMLInputElement).value).toBe('Charged twice');
  });
});
