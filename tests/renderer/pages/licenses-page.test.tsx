import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { licenseMessages } from '../../../src/shared/screen-messages';
import { localStorageKeys } from '../../../src/shared/storage-keys';
import { validLicenseStatus } from '../support/api-answers';
import { type FakeApi, problem } from '../support/fake-api';
import {
  activation,
  bodyOf,
  LICENSE_ID,
  LICENSE_KEY,
  license,
  OTHER_LICENSE_ID,
  openAsUser,
  SLOW,
  startLicenseApi,
  THIS_MACHINE,
} from './support-licenses/license-fixtures';

let api: FakeApi;
beforeEach(async () => {
  api = await startLicenseApi();
});
afterEach(async () => {
  vi.restoreAllMocks();
  // A toast outlives its test otherwise: the notifications store is shared.
  await api.close();
});

const licenseCard = async (name: string) => within(await screen.findByRole('article', { name }, SLOW));
const keyForm = async () => within(await screen.findByRole('region', { name: 'Activate by key' }, SLOW));

const SEAT_LIMIT_MESSAGE =
  'This license is already active on 1 of 1 machine allowed (seat limit 1). Deactivate a machine you no longer use on the license page to free its seat, then try again.';

describe('/licenses: the list', () => {
  it('shows each license with a masked key (reveal, copy), plan, status, expiry, seats and a details link', async () => {
    api.on('GET /licenses', () => ({ json: [license({ activations_used: 2 })] }));
    await openAsUser(api, '/licenses');

    const card = await licenseCard('Pro license');
    expect(card.getByText('Active')).toBeTruthy();
    expect(card.getByText(/Monthly plan · Expires on/)).toBeTruthy();
    expect(card.getByText('2 of 3 seats in use')).toBeTruthy();
    expect(card.getByRole('progressbar', { name: 'Seats in use: 2 of 3' })).toBeTruthy();
    // Masked: the first and last groups only.
    expect(card.getByTestId('license-key').textContent).toBe('JSA7W-•••••-•••••-•••••-WY4K5');
    expect(card.queryByText(LICENSE_KEY)).toBeNull();

    const user = userEvent.setup();
    await user.click(card.getByRole('button', { name: 'Show key' }));
    expect(card.getByTestId('license-key').textContent).toBe(LICENSE_KEY);
    expect(card.getByRole('button', { name: 'Hide key' }).getAttribute('aria-pressed')).toBe('true');
    await user.click(card.getByRole('button', { name: 'Hide key' }));
    expect(card.getByTestId('license-key').textContent).toBe('JSA7W-•••••-•••••-•••••-WY4K5');

    // Copy gives the whole key even while it is masked.
    await user.click(card.getByRole('button', { name: 'Copy key' }));
    // user-event's clipboard stands in for the browser's.
    expect(await navigator.clipboard.readText()).toBe(LICENSE_KEY);
    expect(await card.findByRole('button', { name: 'Key copied' }, SLOW)).toBeTruthy();

    expect(card.getByRole('link', { name: 'Details of the Pro license' }).getAttribute('href')).toBe(
      `/licenses/${LICENSE_ID}`,
    );
    // The user has no Base license: it is offered beside the list.
    expect(await screen.findByRole('heading', { name: 'Free Base license' }, SLOW)).toBeTruthy();
  });

  it('marks the license active on this machine (from the status check) and lists active licenses first', async () => {
    api.on('GET /licenses', () => ({
      json: [
        license({
          license_id: OTHER_LICENSE_ID,
          status: 'expired',
          plan: { id: 'plan-base', code: 'base', name: 'Base', billing_interval: 'free' },
          created_at: '2025-11-01T00:00:00.000Z',
        }),
        license(),
      ],
    }));
    api.on('GET /licensing/status', () => ({
      json: validLicenseStatus(LICENSE_ID, { plan: license().plan }),
    }));
    await openAsUser(api, '/licenses', { licenseKey: LICENSE_KEY });

    const pro = await licenseCard('Pro license');
    expect(await pro.findByText('Active on this machine', undefined, SLOW)).toBeTruthy();
    const base = await licenseCard('Base license');
    expect(base.getByText('Expired')).toBeTruthy();
    expect(base.queryByText('Active on this machine')).toBeNull();
    const titles = screen.getAllByRole('article').map((article) => article.getAttribute('aria-labelledby'));
    const names = titles.map((id) => document.getElementById(id ?? '')?.textContent);
    expect(names).toEqual(['Pro license', 'Base license']);
    // A Base license is held, so none is offered.
    expect(screen.queryByRole('button', { name: 'Activate the free Base license' })).toBeNull();
  });

  it('a license its subscription renews says "Renews on"; a revoked lifetime one says when it was revoked', async () => {
    api.on('GET /licenses', () => ({
      json: [
        license({ renews: true }),
        license({
          license_id: 'lic-life',
          license_key: 'LIFEX-FGHJK-MNPQR-STVWX-YZ234',
          plan_id: 'pro-life',
          plan: { id: 'pro-life', code: 'pro-life', name: 'Lifetime', billing_interval: 'lifetime' },
          expires_at: null,
          status: 'revoked',
          revoked_at: '2025-05-02T09:00:00.000Z',
          revoked_reason: 'Refunded',
        }),
      ],
    }));
    await openAsUser(api, '/licenses');
    const pro = await licenseCard('Pro license');
    expect(pro.getByText(/Monthly plan · Renews on/)).toBeTruthy();
    expect(pro.queryByText(/Expires on/)).toBeNull();
    const lifetime = await licenseCard('Lifetime license');
    expect(lifetime.getByText(/Lifetime plan · Revoked on /)).toBeTruthy();
    expect(lifetime.queryByText(/Never expires/)).toBeNull();
  });

  it('a failed load shows the server message and tries again on request', async () => {
    api.on('GET /licenses', () => problem(503, 'The license store is restarting'));
    await openAsUser(api, '/licenses');
    const alert = await screen.findByText('The license store is restarting', undefined, SLOW);
    expect(alert).toBeTruthy();
    api.on('GET /licenses', () => ({ json: [license()] }));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await licenseCard('Pro license')).toBeTruthy();
    expect(screen.queryByText('The license store is restarting')).toBeNull();
  });
});

describe('/licenses: “Activate on this machine” on a card', () => {
  it('activates the license here in one click (no key to copy), then marks it active on this machine', async () => {
    let activated = false;
    api.on('GET /licenses', () => ({ json: [license({ activations_used: activated ? 2 : 1 })] }));
    api.on('POST /licenses/activate', () => {
      activated = true;
      return {
        status: 201,
        json: {
          ...license({ activations_used: 2 }),
          activation: activation({ hardware_id: THIS_MACHINE }),
          lease: 'x.y.z',
          lease_expires_at: '2030-01-01T00:00:00.000Z',
          message: 'This machine is now activated',
        },
      };
    });
    api.on('GET /licensing/status', () => ({
      json: validLicenseStatus(LICENSE_ID, { plan: license().plan }),
    }));
    const { services } = await openAsUser(api, '/licenses');
    const card = await licenseCard('Pro license');
    await userEvent
      .setup()
      .click(await card.findByRole('button', { name: 'Activate on this machine: Pro license' }, SLOW));

    expect(await screen.findByText('This machine is activated', undefined, SLOW)).toBeTruthy();
    expect(bodyOf(api, 'POST /licenses/activate')).toMatchObject({
      license_key: LICENSE_KEY,
      hardware_id: THIS_MACHINE,
    });
    expect(services.local.getItem(localStorageKeys.licenseKey)).toBe(LICENSE_KEY);
    expect(await card.findByText('Active on this machine', undefined, SLOW)).toBeTruthy();
    // Already used here: nothing left to activate.
    expect(card.queryByRole('button', { name: /^Activate on this machine/ })).toBeNull();
  });

  it('a full license: the button is disabled and says why; revoked, suspended and expired ones have none', async () => {
    api.on('GET /licenses', () => ({
      json: [
        license({ activations_used: 3 }),
        license({ license_id: OTHER_LICENSE_ID, status: 'suspended' }),
        license({
          license_id: '8b3c4d5e-6f7a-4b2c-8d3e-4f5a6b7c8d9e',
          status: 'revoked',
          revoked_reason: 'Chargeback',
          plan: { id: 'plan-team', code: 'team-yearly', name: 'Team', billing_interval: 'year' },
        }),
      ],
    }));
    await openAsUser(api, '/licenses');
    const [full, suspended, revoked] = (await screen.findAllByRole('article', undefined, SLOW)).map((card) =>
      within(card),
    );
    const button = full?.getByRole('button', { name: 'Activate on this machine: Pro license' });
    expect(button?.hasAttribute('disabled')).toBe(true);
    const reason = full?.getByTestId('activation-blocked');
    expect(reason?.textContent).toMatch(/^All 3 seats are in use\. /);
    expect(button?.getAttribute('aria-describedby')).toBe(reason?.id);
    expect(full?.getByRole('link', { name: 'Free a seat' }).getAttribute('href')).toBe(
      `/licenses/${LICENSE_ID}`,
    );

    expect(suspended?.queryByRole('button', { name: /^Activate on this machine/ })).toBeNull();
    expect(suspended?.getByText('This license is suspended')).toBeTruthy();
    expect(revoked?.queryByRole('button', { name: /^Activate on this machine/ })).toBeNull();
    expect(revoked?.getByText(/^Reason given: Chargeback\. /)).toBeTruthy();
    expect(api.calls('POST /licenses/activate')).toHaveLength(0);
  });
});

describe('/licenses: the free Base license', () => {
  it('without any license: the empty state activates Base on this machine and lists it', async () => {
    const base = license({
      plan: { id: 'plan-base', code: 'base', name: 'Base', billing_interval: 'free' },
      max_activations: 1,
    });
    // As the server does: once activated, the Base license is among the user's licenses.
    let activated = false;
    api.on('GET /licenses', () => ({ json: activated ? [base] : [] }));
    api.on('POST /licenses/activate-base', () => {
      activated = true;
      return {
        status: 201,
        json: {
          ...base,
          activation: activation({ hardware_id: THIS_MACHINE }),
          lease: 'x.y.z',
          lease_expires_at: '2030-01-01T00:00:00.000Z',
          message: 'This machine is now activated',
        },
      };
    });
    const { services } = await openAsUser(api, '/licenses');

    expect(await screen.findByRole('heading', { name: 'You have no license yet' }, SLOW)).toBeTruthy();
    // What the free plan gives, from the public catalogue.
    expect(await screen.findByText('AI chat: 100 messages per month', undefined, SLOW)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See paid plans' }).getAttribute('href')).toBe('/purchase');

    await userEvent.setup().click(screen.getByRole('button', { name: 'Activate the free Base license' }));
    expect(await licenseCard('Base license')).toBeTruthy();
    expect(await screen.findByText('Base license activated', undefined, SLOW)).toBeTruthy();
    const body = bodyOf(api, 'POST /licenses/activate-base');
    expect(body['hardware_id']).toBe(THIS_MACHINE);
    expect(body['device_name']).toEqual(expect.stringMatching(/ on /));
    expect(services.local.getItem(localStorageKeys.licenseKey)).toBe(LICENSE_KEY);
    expect(screen.queryByRole('heading', { name: 'You have no license yet' })).toBeNull();
  });

  it('a refused Base activation shows the server’s detail', async () => {
    api.on('POST /licenses/activate-base', () => ({
      status: 409,
      json: {
        detail: 'The free Base plan is not available at the moment',
        message: 'x',
        code: 'base_plan_unavailable',
      },
    }));
    await openAsUser(api, '/licenses');
    await userEvent
      .setup()
      .click(await screen.findByRole('button', { name: 'Activate the free Base license' }, SLOW));
    expect(
      await screen.findByText('The free Base plan is not available at the moment', undefined, SLOW),
    ).toBeTruthy();
    expect(screen.getByText('Base license activation failed')).toBeTruthy();
  });
});

describe('/licenses: activate by key', () => {
  it('an empty key is refused before any request', async () => {
    await openAsUser(api, '/licenses');
    const form = await keyForm();
    await userEvent.setup().click(form.getByRole('button', { name: 'Activate' }));
    expect(await form.findByText('Enter a license key', undefined, SLOW)).toBeTruthy();
    expect(form.getByLabelText(/License key/).getAttribute('aria-invalid')).toBe('true');
    expect(api.calls('POST /licenses/activate')).toHaveLength(0);
  });

  it('activates THIS machine with the key, keeps the key, and says so', async () => {
    // As the server does: once activated, the license is among the user's licenses.
    let activated = false;
    api.on('GET /licenses', () => ({ json: activated ? [license()] : [] }));
    api.on('POST /licenses/activate', () => {
      activated = true;
      return {
        status: 201,
        json: {
          ...license(),
          activation: activation({ hardware_id: THIS_MACHINE }),
          lease: 'x.y.z',
          lease_expires_at: '2030-01-01T00:00:00.000Z',
          message: 'This machine is now activated',
        },
      };
    });
    const { services } = await openAsUser(api, '/licenses');
    const form = await keyForm();
    const user = userEvent.setup();
    await user.type(form.getByLabelText(/License key/), ` ${LICENSE_KEY.toLowerCase()} `);
    await user.click(form.getByRole('button', { name: 'Activate' }));

    expect(await screen.findByText('This machine is activated', undefined, SLOW)).toBeTruthy();
    expect(screen.getByText('It now uses your Pro license.')).toBeTruthy();
    const body = bodyOf(api, 'POST /licenses/activate');
    // The key as typed (trimmed; the server normalises case and dashes), this browser's id, a readable name.
    expect(body).toMatchObject({ license_key: LICENSE_KEY.toLowerCase(), hardware_id: THIS_MACHINE });
    expect(body['device_name']).toEqual(expect.stringMatching(/ on /));
    expect(body['platform']).toEqual(expect.stringMatching(/^Web/));
    expect(services.local.getItem(localStorageKeys.licenseKey)).toBe(LICENSE_KEY);
    // The license joins the list, and the form is cleared for the next key.
    expect(await licenseCard('Pro license')).toBeTruthy();
    expect((form.getByLabelText(/License key/) as HTMLInputElement).value).toBe('');
  });

  it('over the seat limit: the server’s message, and a way to the license to free a seat', async () => {
    let listCalls = 0;
    api.on('GET /licenses', () => {
      listCalls += 1;
      // The first list is from before another machine took the last seat.
      return { json: [license({ max_activations: 1, activations_used: listCalls === 1 ? 0 : 1 })] };
    });
    api.on('POST /licenses/activate', () => problem(409, SEAT_LIMIT_MESSAGE, 'activation_limit_reached'));
    await openAsUser(api, '/licenses');
    await licenseCard('Pro license');
    const form = await keyForm();
    const user = userEvent.setup();
    await user.type(form.getByLabelText(/License key/), LICENSE_KEY);
    await user.click(form.getByRole('button', { name: 'Activate' }));

    const alert = await form.findByRole('alert', undefined, SLOW);
    expect(within(alert).getByText('All seats of this license are in use')).toBeTruthy();
    expect(within(alert).getByTestId('activation-error').textContent).toBe(SEAT_LIMIT_MESSAGE);
    expect(within(alert).getByRole('link', { name: 'Free a seat' }).getAttribute('href')).toBe(
      `/licenses/${LICENSE_ID}`,
    );
    // Fresh seat counts were fetched past the cache to tell a full license from other refusals.
    expect(api.calls('GET /licenses').length).toBeGreaterThanOrEqual(2);
    expect((await licenseCard('Pro license')).getByText('1 of 1 seat in use')).toBeTruthy();
  });

  it('another refusal (a mistyped key) shows the server’s words without a seat link', async () => {
    api.on('POST /licenses/activate', () => ({
      status: 400,
      json: {
        detail: 'x',
        message: 'This is not a valid license key. Check it for typos.',
        code: 'invalid_license_key',
        valid: false,
        status: 'invalid_key',
      },
    }));
    await openAsUser(api, '/licenses');
    const form = await keyForm();
    const user = userEvent.setup();
    await user.type(form.getByLabelText(/License key/), 'ABCDE-FGHJK');
    await user.click(form.getByRole('button', { name: 'Activate' }));
    const alert = await form.findByRole('alert', undefined, SLOW);
    expect(within(alert).getByText('Could not activate this machine')).toBeTruthy();
    expect(within(alert).getByText('This is not a valid license key. Check it for typos.')).toBeTruthy();
    expect(within(alert).queryByRole('link')).toBeNull();
  });

  it('with no server message the catalogue fallback is shown', async () => {
    api.on('POST /licenses/activate', () => ({
      status: 500,
      json: {},
      offContract: 'an error without a message',
    }));
    await openAsUser(api, '/licenses');
    const form = await keyForm();
    const user = userEvent.setup();
    await user.type(form.getByLabelText(/License key/), LICENSE_KEY);
    await user.click(form.getByRole('button', { name: 'Activate' }));
    await waitFor(
      () => expect(form.getByTestId('activation-error').textContent).toBe(licenseMessages.activationFailed),
      SLOW,
    );
  });
});
