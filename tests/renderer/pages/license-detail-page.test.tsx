import { createHash } from 'node:crypto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeApi, problem } from '../support/fake-api';
import {
  activation,
  bodyOf,
  chat,
  LICENSE_ID,
  license,
  openAsUser,
  release,
  SLOW,
  startLicenseApi,
  THIS_MACHINE,
  voice,
} from './support-licenses/license-fixtures';

let api: FakeApi;
beforeEach(async () => {
  api = await startLicenseApi();
  api.on(`GET /licenses/${LICENSE_ID}/usage`, () => ({
    json: {
      license_id: LICENSE_ID,
      usage_info: { features: [chat(), voice()] },
      overage: [],
      packs: [],
      history: [],
      currency: 'INR',
    },
  }));
  api.on(`GET /licenses/${LICENSE_ID}/download`, () => ({ json: { license_id: LICENSE_ID, releases: [] } }));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await api.close();
});

const PATH = `/licenses/${LICENSE_ID}`;
const section = async (name: string) => within(await screen.findByRole('region', { name }, SLOW));

/** A license with this browser's seat and a work laptop's. */
function withMachines(extra: Parameters<typeof license>[0] = {}) {
  const detail = license({
    activations_used: 2,
    activations: [
      activation(),
      activation({
        activation_id: 'act-2',
        hardware_id: THIS_MACHINE,
        device_name: 'Firefox on Linux',
        platform: 'Web (Linux)',
        app_version: null,
      }),
      activation({
        activation_id: 'act-0',
        hardware_id: 'hw-old-desktop-0000',
        device_name: 'Old desktop',
        deactivated_at: '2025-09-01T00:00:00.000Z',
        deactivated_reason: 'admin',
      }),
    ],
    ...extra,
  });
  api.on(`GET /licenses/${LICENSE_ID}`, () => ({ json: detail }));
  return detail;
}

describe('/licenses/{licenseId}: details and machines', () => {
  it('shows the license (masked key, plan, expiry, seats) and its machines, this one marked', async () => {
    withMachines();
    await openAsUser(api, PATH);
    expect(await screen.findByRole('heading', { level: 1, name: 'Pro license' }, SLOW)).toBeTruthy();
    const details = await section('Details');
    expect(details.getByTestId('license-key').textContent).toBe('JSA7W-•••••-•••••-•••••-WY4K5');
    expect(details.getByText('Pro (billed monthly)')).toBeTruthy();
    expect(details.getByText('Validity')).toBeTruthy();
    expect(details.getByText(/^Expires on/)).toBeTruthy();
    expect((await section('Seats')).getByText('2 of 3 seats in use')).toBeTruthy();
    expect((await section('Seats')).getByTestId('this-machine-active')).toBeTruthy();

    const machines = within(screen.getByRole('table', { name: 'Machines' }));
    const rows = machines.getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    const laptop = within(rows[0] as HTMLElement);
    expect(laptop.getByText('Work laptop')).toBeTruthy();
    expect(laptop.getByText('Windows')).toBeTruthy();
    expect(laptop.getByText('App 1.4.0')).toBeTruthy();
    expect(laptop.queryByText('This machine')).toBeNull();
    const here = within(rows[1] as HTMLElement);
    expect(here.getByText('Firefox on Linux')).toBeTruthy();
    expect(await here.findByText('This machine', undefined, SLOW)).toBeTruthy();
    expect(here.getByRole('button', { name: 'Deactivate Firefox on Linux (this machine)' })).toBeTruthy();

    // Former machines stay out of the way until asked for.
    expect(screen.queryByText('Old desktop')).toBeNull();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Show 1 deactivated machine' }));
    expect(screen.getByText('Old desktop')).toBeTruthy();
    expect(screen.getByText(/by an administrator/)).toBeTruthy();
  });

  it('Deactivate asks first; Cancel sends nothing; confirming frees the seat', async () => {
    withMachines();
    api.on(`POST /licenses/${LICENSE_ID}/deactivate`, () => ({
      json: license({
        activations_used: 1,
        activations: [
          activation({ deactivated_at: new Date().toISOString(), deactivated_reason: 'user' }),
          activation({ activation_id: 'act-2', hardware_id: THIS_MACHINE, device_name: 'Firefox on Linux' }),
        ],
      }),
    }));
    await openAsUser(api, PATH);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Deactivate Work laptop' }, SLOW));
    let dialog = within(await screen.findByRole('dialog', { name: 'Deactivate Work laptop?' }, SLOW));
    expect(dialog.getByText(/gives up its seat on the Pro license/)).toBeTruthy();
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SLOW);
    expect(api.calls(`POST /licenses/${LICENSE_ID}/deactivate`)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Deactivate Work laptop' }));
    dialog = within(await screen.findByRole('dialog', { name: 'Deactivate Work laptop?' }, SLOW));
    await user.click(dialog.getByRole('button', { name: 'Deactivate' }));

    expect(await screen.findByText('Machine deactivated', undefined, SLOW)).toBeTruthy();
    expect(screen.getByText('Work laptop no longer uses a seat: 1 of 3 seats in use.')).toBeTruthy();
    expect(bodyOf(api, `POST /licenses/${LICENSE_ID}/deactivate`)).toEqual({ activation_id: 'act-1' });
    expect((await section('Seats')).getByText('1 of 3 seats in use')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Deactivate Work laptop' })).toBeNull();
  });

  it('a refused deactivation keeps the dialog open with the server’s message', async () => {
    withMachines();
    api.on(`POST /licenses/${LICENSE_ID}/deactivate`, () =>
      problem(404, 'This machine is not activated on this license', 'activation_not_found'),
    );
    await openAsUser(api, PATH);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Deactivate Work laptop' }, SLOW));
    const dialog = within(await screen.findByRole('dialog', undefined, SLOW));
    await user.click(dialog.getByRole('button', { name: 'Deactivate' }));
    expect(
      await dialog.findByText('This machine is not activated on this license', undefined, SLOW),
    ).toBeTruthy();
    expect(dialog.getByText('Could not deactivate')).toBeTruthy();
  });

  it('the cap on deactivations: what is left, and once used the date the next becomes possible', async () => {
    withMachines({ machine_changes: { limit: 3, used: 1, window_days: 30, next_possible_at: null } });
    await openAsUser(api, PATH);
    expect((await section('Seats')).getByTestId('machine-changes').textContent).toBe(
      'You may deactivate 2 more machines in the next 30 days (your plan allows 3 every 30 days).',
    );
  });

  it('a deactivation refused by the cap shows the server’s date in the dialog and on the Seats card', async () => {
    withMachines({
      machine_changes: { limit: 3, used: 3, window_days: 30, next_possible_at: '2026-12-31T10:00:00.000Z' },
    });
    const refusal =
      'This license has deactivated 3 machines in the last 30 days, the most its plan allows (3). The next deactivation is possible on 31 December 2026.';
    api.on(`POST /licenses/${LICENSE_ID}/deactivate`, () =>
      problem(409, refusal, 'deactivation_limit_reached'),
    );
    await openAsUser(api, PATH);
    expect((await section('Seats')).getByTestId('machine-changes').textContent).toMatch(
      /^You have deactivated 3 machines in the last 30 days, the most your plan allows\. The next deactivation is possible on .*2026\.$/,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Deactivate Work laptop' }, SLOW));
    const dialog = within(await screen.findByRole('dialog', undefined, SLOW));
    await user.click(dialog.getByRole('button', { name: 'Deactivate' }));
    expect(await dialog.findByText(refusal, undefined, SLOW)).toBeTruthy();
  });

  it('this machine not on the license: “Activate this machine” activates it with the license’s key', async () => {
    const detail = license({ activations_used: 0, activations: [] });
    api.on(`GET /licenses/${LICENSE_ID}`, () => ({ json: detail }));
    api.on('POST /licenses/activate', () => ({
      status: 201,
      json: {
        ...license({ activations_used: 1, activations: [activation({ hardware_id: THIS_MACHINE })] }),
        activation: activation({ hardware_id: THIS_MACHINE }),
        lease: 'x.y.z',
        lease_expires_at: '2030-01-01T00:00:00.000Z',
        message: 'This machine is now activated',
      },
    }));
    await openAsUser(api, PATH);
    expect(await screen.findByTestId('no-machines', undefined, SLOW)).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Activate this machine' }));
    expect(await screen.findByTestId('this-machine-active', undefined, SLOW)).toBeTruthy();
    expect(bodyOf(api, 'POST /licenses/activate')).toMatchObject({
      license_key: detail.license_key,
      hardware_id: THIS_MACHINE,
    });
    expect((await section('Seats')).getByText('1 of 3 seats in use')).toBeTruthy();
  });

  it('a revoked license shows the reason the administrator gave', async () => {
    withMachines({
      status: 'revoked',
      revoked_reason: 'Chargeback on the order',
      revoked_at: '2025-11-02T10:00:00.000Z',
    });
    api.on(`GET /licenses/${LICENSE_ID}/download`, () =>
      problem(403, 'This license was revoked: Chargeback on the order.', 'license_revoked'),
    );
    await openAsUser(api, PATH);
    expect(await screen.findByText('This license was revoked', undefined, SLOW)).toBeTruthy();
    expect(screen.getByTestId('revoked-reason').textContent).toBe('Reason given: Chargeback on the order');
    expect(screen.getByText('Revoked')).toBeTruthy();
    // Nothing to activate on a revoked license; its downloads say why they are not offered.
    expect(screen.queryByRole('button', { name: 'Activate this machine' })).toBeNull();
    const downloads = await section('Download the desktop app');
    expect(await downloads.findByText('Downloads need an active license', undefined, SLOW)).toBeTruthy();
    expect(downloads.getByText('This license was revoked: Chargeback on the order.')).toBeTruthy();
  });
});

describe('/licenses/{licenseId}: flags, as on the dashboard', () => {
  it('a suspended license says so and points to support; one expiring soon says when and offers renewal', async () => {
    withMachines({ status: 'suspended' });
    const { unmount } = await openAsUser(api, PATH);
    const suspended = within(await screen.findByTestId('license-flag', undefined, SLOW));
    expect(suspended.getByText('This license is suspended')).toBeTruthy();
    expect(suspended.getByRole('link', { name: 'Contact support: Pro license' }).getAttribute('href')).toBe(
      '/support',
    );
    unmount();

    withMachines({ expires_at: new Date(Date.now() + 2 * 86_400_000 + 3_600_000).toISOString() });
    await openAsUser(api, PATH);
    const expiring = within(await screen.findByTestId('license-flag', undefined, SLOW));
    expect(expiring.getByText(/^Expires (in 2 days|in 3 days)$/)).toBeTruthy();
    expect(expiring.getByRole('link', { name: 'Renew: Pro license' }).getAttribute('href')).toBe('/purchase');
  });
});

describe('/licenses/{licenseId}: not found', () => {
  it('an id the user does not hold: a clear not-found state with the way back', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    api.on(`GET /licenses/${missing}`, () => problem(404, 'License not found', 'license_not_found'));
    api.on('GET /licenses', () => ({ json: [license()] }));
    await openAsUser(api, `/licenses/${missing}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'License not found' }, SLOW)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to your licenses' }).getAttribute('href')).toBe(
      '/licenses',
    );
  });

  it('something that is not a license id is not found without asking the server', async () => {
    await openAsUser(api, '/licenses/not-an-id');
    expect(await screen.findByRole('heading', { level: 1, name: 'License not found' }, SLOW)).toBeTruthy();
    expect(api.requests.filter((request) => request.path.startsWith('/licenses/'))).toHaveLength(0);
  });

  it('a failed call (not a missing license) is an error with a retry, not “not found”', async () => {
    let calls = 0;
    api.on(`GET /licenses/${LICENSE_ID}`, () => {
      calls += 1;
      return calls === 1 ? problem(500, 'Database unavailable') : { json: license() };
    });
    api.on('GET /licenses', () => ({ json: [license()] }));
    await openAsUser(api, PATH);
    expect(await screen.findByText('Database unavailable', undefined, SLOW)).toBeTruthy();
    expect(screen.queryByText('License not found')).toBeNull();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Pro license' })).toBeTruthy();
  });
});

describe('/licenses/{licenseId}: usage and features', () => {
  it('charts each metered feature over time and switches the range', async () => {
    withMachines();
    const day = new Date().toISOString().slice(0, 10);
    api.on(`GET /licenses/${LICENSE_ID}/usage`, (request) => ({
      json: {
        license_id: LICENSE_ID,
        usage_info: { features: [chat(), voice()] },
        currency: 'INR',
        overage: [],
        packs: [],
        history:
          request.query.get('days') === '7'
            ? [{ date: day, feature_id: 'f-chat', key: 'ai_chat', amount: 4 }]
            : [{ date: day, feature_id: 'f-chat', key: 'ai_chat', amount: 37 }],
      },
    }));
    await openAsUser(api, PATH);
    const usage = await section('Usage');
    const chatCard = within(await usage.findByRole('article', { name: 'AI chat usage' }, SLOW));
    expect(chatCard.getByText(/of 100 messages this month/)).toBeTruthy();
    expect(
      within(chatCard.getByRole('figure', { name: 'AI chat per day over the last 30 days' })).getByTestId(
        'usage-chart-summary',
      ).textContent,
    ).toMatch(/^AI chat: 37 messages in total/);
    expect(usage.queryByRole('article', { name: 'Voice commands usage' })).toBeNull();

    await userEvent.setup().click(usage.getByRole('radio', { name: '7 days' }));
    expect(
      await chatCard.findByRole('figure', { name: 'AI chat per day over the last 7 days' }, SLOW),
    ).toBeTruthy();
    await waitFor(
      () =>
        expect(chatCard.getByTestId('usage-chart-summary').textContent).toMatch(
          /^AI chat: 4 messages in total/,
        ),
      SLOW,
    );
    expect(api.calls(`GET /licenses/${LICENSE_ID}/usage`).map((call) => call.query.get('days'))).toContain(
      '7',
    );
  });

  it('lists the plan’s features with availability, limit, use and what is left', async () => {
    withMachines();
    api.on(`GET /licenses/${LICENSE_ID}/usage`, () => ({
      json: {
        license_id: LICENSE_ID,
        usage_info: {
          features: [
            chat({
              used: 100,
              remaining: 0,
              available: false,
              message: 'AI chat limit reached: 100 of 100 messages used this month',
            }),
            voice(),
          ],
        },
        currency: 'INR',
        overage: [],
        packs: [],
        history: [],
      },
    }));
    await openAsUser(api, PATH);
    const table = within(await screen.findByRole('table', { name: 'Features' }, SLOW));
    const chatRow = within(await table.findByRole('row', { name: /AI chat/ }, SLOW));
    await waitFor(() => expect(chatRow.getByText('Unavailable')).toBeTruthy(), SLOW);
    expect(chatRow.getByText('AI chat limit reached: 100 of 100 messages used this month')).toBeTruthy();
    expect(chatRow.getByText('100 messages per month')).toBeTruthy();
    const voiceRow = within(table.getByRole('row', { name: /Voice commands/ }));
    expect(voiceRow.getByText('Available')).toBeTruthy();
    expect(voiceRow.getByText('Included')).toBeTruthy();
  });
});

describe('/licenses/{licenseId}: downloads', () => {
  const installer = Buffer.from('desktop installer bytes '.repeat(4096));
  const sha256 = createHash('sha256').update(installer).digest('hex');

  function serveInstaller() {
    api.on('GET /downloads/signed-token', async (_request, response) => {
      response.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': String(installer.length),
        'access-control-allow-origin': '*',
      });
      // Half now, half a moment later: the progress bar shows in between.
      response.write(installer.subarray(0, installer.length / 2));
      await new Promise((resolve) => setTimeout(resolve, 400));
      response.end(installer.subarray(installer.length / 2));
    });
  }

  function captureSaves() {
    const saved: { name: string; size: number }[] = [];
    let blob: Blob | null = null;
    Object.defineProperty(URL, 'createObjectURL', {
      configurable: true,
      value: (value: Blob) => {
        blob = value;
        return 'blob:portal.test/installer';
      },
    });
    Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: () => undefined });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, size: blob?.size ?? -1 });
    });
    return saved;
  }

  it('downloads with a progress bar, checks the SHA-256 with Web Crypto, then saves the file', async () => {
    withMachines();
    api.on(`GET /licenses/${LICENSE_ID}/download`, () => ({
      json: {
        license_id: LICENSE_ID,
        releases: [
          release({ size_bytes: installer.length, sha256 }),
          release({ platform: 'windows', file_name: 'Assistant-Setup-1.4.0.exe', sha256: '1'.repeat(64) }),
        ],
      },
    }));
    serveInstaller();
    const saved = captureSaves();
    await openAsUser(api, PATH);
    const linux = within(await screen.findByRole('article', { name: 'Linux installer' }, SLOW));
    expect(linux.getByText('Assistant-1.4.0.AppImage')).toBeTruthy();
    expect(linux.getByTestId('release-sha256').textContent).toBe(sha256);
    expect(screen.getByRole('article', { name: 'Windows installer' })).toBeTruthy();

    await userEvent.setup().click(linux.getByRole('button', { name: 'Download for Linux' }));
    const bar = await linux.findByRole('progressbar', { name: 'Linux installer download' }, SLOW);
    await waitFor(() => expect(Number(bar.getAttribute('aria-valuenow'))).toBeGreaterThan(0), SLOW);
    expect(await linux.findByText('Checksum verified', undefined, SLOW)).toBeTruthy();
    expect(saved).toEqual([{ name: 'Assistant-1.4.0.AppImage', size: installer.length }]);
    // Fetched through the portal's own API base, without the session's bearer token.
    const [call] = api.calls('GET /downloads/signed-token');
    expect(call?.authorization).toBeUndefined();
    expect(await screen.findByText('Download complete', undefined, SLOW)).toBeTruthy();

    await userEvent.setup().click(linux.getByRole('button', { name: 'Save Linux installer again' }));
    expect(saved).toHaveLength(2);
  });

  it('a file that does not match its checksum is not saved', async () => {
    withMachines();
    api.on(`GET /licenses/${LICENSE_ID}/download`, () => ({
      json: {
        license_id: LICENSE_ID,
        releases: [release({ size_bytes: installer.length, sha256: 'f'.repeat(64) })],
      },
    }));
    serveInstaller();
    const saved = captureSaves();
    await openAsUser(api, PATH);
    const linux = within(await screen.findByRole('article', { name: 'Linux installer' }, SLOW));
    await userEvent.setup().click(linux.getByRole('button', { name: 'Download for Linux' }));
    const alert = await linux.findByText('Checksum mismatch', undefined, SLOW);
    expect(alert).toBeTruthy();
    expect(linux.getByText(`Got ${sha256}`)).toBeTruthy();
    expect(saved).toEqual([]);
  });

  it('an expired link’s refusal is shown in the server’s words', async () => {
    withMachines();
    api.on(`GET /licenses/${LICENSE_ID}/download`, () => ({
      json: { license_id: LICENSE_ID, releases: [release()] },
    }));
    api.on('GET /downloads/signed-token', () =>
      problem(
        410,
        'This download link has expired. Start the download again from your license page.',
        'download_link_expired',
      ),
    );
    await openAsUser(api, PATH);
    const linux = within(await screen.findByRole('article', { name: 'Linux installer' }, SLOW));
    await userEvent.setup().click(linux.getByRole('button', { name: 'Download for Linux' }));
    expect(
      await linux.findByText(
        'This download link has expired. Start the download again from your license page.',
      ),
    ).toBeTruthy();
    expect(linux.getByText('Download failed')).toBeTruthy();
  });

  it('nothing published yet is said plainly, not as an error', async () => {
    withMachines();
    api.on(`GET /licenses/${LICENSE_ID}/download`, () =>
      problem(404, 'No desktop release has been published yet', 'release_not_found'),
    );
    await openAsUser(api, PATH);
    const downloads = await section('Download the desktop app');
    expect(
      await downloads.findByText(/No desktop release has been published yet/, undefined, SLOW),
    ).toBeTruthy();
    expect(downloads.queryByRole('alert')).toBeNull();
  });
});
