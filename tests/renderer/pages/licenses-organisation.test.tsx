import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MASKED_LICENSE_KEY } from '../../../src/shared/api/licenses';
import { localStorageKeys } from '../../../src/shared/storage-keys';
import { validLicenseStatus } from '../support/api-answers';
import { type FakeApi, problem } from '../support/fake-api';
import {
  activation,
  bodyOf,
  LICENSE_ID,
  LICENSE_KEY,
  license,
  openAsUser,
  SLOW,
  startLicenseApi,
  THIS_MACHINE,
} from './support-licenses/license-fixtures';

const ORGANISATION = { id: '2c9d8e7f-6a5b-4c3d-9e2f-1a0b9c8d7e6f', name: 'Acme Research' };
const ACTIVATE_SEAT = `POST /organisations/${ORGANISATION.id}/seat/activate`;

/** The organisation's license as a member sees it: masked key, no owner, their own machines only. */
const provided = (extra: Parameters<typeof license>[0] = {}) =>
  license({
    license_key: MASKED_LICENSE_KEY,
    user_id: null,
    subscription_id: null,
    plan: { id: 'plan-business', code: 'business-monthly', name: 'Business', billing_interval: 'month' },
    max_activations: 10,
    activations_used: 4,
    organisation: ORGANISATION,
    activations: [
      activation({
        activation_id: '3d4e5f6a-7b8c-4d9e-8f0a-1b2c3d4e5f6a',
        hardware_id: 'hw-laptop-0001',
        device_name: 'Work laptop',
      }),
    ],
    ...extra,
  });

let api: FakeApi;
beforeEach(async () => {
  api = await startLicenseApi();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await api.close();
});

const card = async () => within(await screen.findByRole('article', { name: 'Business license' }, SLOW));

describe('/licenses: a license an organisation provides', () => {
  it('shows who provides it and the member’s own machines, never a key', async () => {
    api.on('GET /licenses', () => ({ json: [provided()] }));
    await openAsUser(api, '/licenses');
    const business = await card();

    expect(business.getByTestId('provided-by').textContent).toBe('Provided by Acme Research');
    expect(business.getByRole('link', { name: 'Acme Research' }).getAttribute('href')).toBe(
      `/organisations/${ORGANISATION.id}`,
    );
    expect(business.getByTestId('seat-machines').textContent).toContain('Work laptop');
    expect(business.queryByTestId('license-key')).toBeNull();
    expect(business.queryByRole('button', { name: 'Show key' })).toBeNull();
    expect(business.queryByRole('button', { name: 'Copy key' })).toBeNull();
    expect(document.body.textContent).not.toContain(MASKED_LICENSE_KEY);
  });

  it('“Activate on this machine” activates on the member’s seat by keyboard: no key typed or shown, the app keeps it', async () => {
    let activated = false;
    api.on('GET /licenses', () => ({ json: [provided({ activations_used: activated ? 5 : 4 })] }));
    api.on(ACTIVATE_SEAT, () => {
      activated = true;
      return {
        status: 201,
        json: {
          ...provided({ activations_used: 5 }),
          // The app checks with the key, so the answer carries it.
          license_key: LICENSE_KEY,
          activation: activation({ hardware_id: THIS_MACHINE }),
          lease: 'x.y.z',
          lease_expires_at: '2030-01-01T00:00:00.000Z',
          message: 'This machine is now activated on your seat',
        },
      };
    });
    api.on('GET /licensing/status', () =>
      activated
        ? {
            json: validLicenseStatus(LICENSE_ID, {
              plan: provided().plan,
              seat: { organisation_id: ORGANISATION.id, organisation_name: ORGANISATION.name, user_id: 'u1' },
            }),
          }
        : problem(403, 'This machine is not activated for this license.'),
    );
    const { services } = await openAsUser(api, '/licenses');
    const business = await card();
    const button = await business.findByRole(
      'button',
      { name: 'Activate on this machine: Business license' },
      SLOW,
    );

    const user = userEvent.setup();
    button.focus();
    await user.keyboard('{Enter}');

    expect(await screen.findByText('This machine is activated', undefined, SLOW)).toBeTruthy();
    expect(bodyOf(api, ACTIVATE_SEAT)).toEqual(expect.objectContaining({ hardware_id: THIS_MACHINE }));
    expect(bodyOf(api, ACTIVATE_SEAT)).not.toHaveProperty('license_key');
    expect(api.calls('POST /licenses/activate')).toHaveLength(0);
    // The app keeps the key for its checks; the page shows it nowhere, nor does "This machine".
    expect(services.local.getItem(localStorageKeys.licenseKey)).toBe(LICENSE_KEY);
    expect(await business.findByText('Active on this machine', undefined, SLOW)).toBeTruthy();
    expect(
      await screen.findByText('Kept by the app: Acme Research provides this license', undefined, SLOW),
    ).toBeTruthy();
    expect(document.body.textContent).not.toContain(LICENSE_KEY);
  });

  it('on a floating plan, “Activate on this machine” takes one of the pool’s seats signed in, and the app keeps the machine’s own key', async () => {
    api.on('GET /licenses', () => ({ json: [provided()] }));
    const message = 'Acme Research’s license has floating seats: this machine takes one when the app runs.';
    api.on(ACTIVATE_SEAT, () => ({
      status: 409,
      json: { detail: message, message, code: 'license_floating' },
    }));
    const CHECKOUT = `POST /organisations/${ORGANISATION.id}/floating/checkout`;
    api.on(CHECKOUT, () => ({
      status: 201,
      json: {
        license_id: LICENSE_ID,
        seat_id: 'seat-1',
        seats: 5,
        in_use: 2,
        heartbeat_seconds: 300,
        max_borrow_days: 7,
        checked_out_at: '2026-12-05T10:00:00.000Z',
        held_until: '2026-12-05T10:15:00.000Z',
        borrowed_until: null,
        lease: 'x.y.z',
        lease_expires_at: '2026-12-05T10:15:00.000Z',
        message: 'A floating seat is yours while the app runs.',
        seat_key: LICENSE_KEY,
        organisation_id: ORGANISATION.id,
        organisation_name: ORGANISATION.name,
      },
    }));
    // The check of a member's machine on the pool names the organisation, as a seat's does.
    api.on('GET /licensing/status', () => ({
      json: validLicenseStatus(LICENSE_ID, {
        plan: provided().plan,
        activation_id: null,
        seat: { organisation_id: ORGANISATION.id, organisation_name: ORGANISATION.name, user_id: 'u1' },
      }),
    }));
    const { services } = await openAsUser(api, '/licenses');
    const business = await card();
    await userEvent.click(
      await business.findByRole('button', { name: 'Activate on this machine: Business license' }, SLOW),
    );
    expect(await screen.findByText('This machine holds a floating seat', undefined, SLOW)).toBeTruthy();
    expect(screen.getByText(/5 floating seats; 2 in use now/)).toBeTruthy();
    expect(bodyOf(api, CHECKOUT)).toEqual(expect.objectContaining({ hardware_id: THIS_MACHINE }));
    // The app keeps the machine's own key for its checks and heartbeats; the page shows it nowhere.
    expect(services.local.getItem(localStorageKeys.licenseKey)).toBe(LICENSE_KEY);
    expect(
      await screen.findByText('Kept by the app: Acme Research provides this license', undefined, SLOW),
    ).toBeTruthy();
    expect(document.body.textContent).not.toContain(LICENSE_KEY);
  });

  it('a refusal (the seat’s machines all in use) is said beside the button', async () => {
    api.on('GET /licenses', () => ({ json: [provided()] }));
    const message =
      'Your seat in Acme Research is already active on 2 of 2 machines allowed. Deactivate a machine you no longer use on the Licenses page, then try again.';
    api.on(ACTIVATE_SEAT, () => ({
      status: 409,
      json: { detail: message, message, code: 'seat_machine_limit' },
    }));
    await openAsUser(api, '/licenses');
    const business = await card();
    await userEvent
      .setup()
      .click(
        await business.findByRole('button', { name: 'Activate on this machine: Business license' }, SLOW),
      );
    expect(await business.findByText(message, undefined, SLOW)).toBeTruthy();
    expect(business.getByText('Could not activate this machine')).toBeTruthy();
  });

  it('“This machine” names the organisation from its check, not the key the app keeps', async () => {
    api.on('GET /licenses', () => ({ json: [] }));
    api.on('GET /licensing/status', () => ({
      json: validLicenseStatus(LICENSE_ID, {
        plan: provided().plan,
        seat: { organisation_id: ORGANISATION.id, organisation_name: ORGANISATION.name, user_id: 'u1' },
      }),
    }));
    await openAsUser(api, '/licenses', { licenseKey: LICENSE_KEY });
    expect(
      await screen.findByText('Kept by the app: Acme Research provides this license', undefined, SLOW),
    ).toBeTruthy();
    expect(document.body.textContent).not.toContain(LICENSE_KEY);
  });

  it('the dashboard’s “Activate this machine” uses the member’s seat as well', async () => {
    api.on('GET /licenses', () => ({ json: [provided()] }));
    api.on(ACTIVATE_SEAT, () => ({
      status: 201,
      json: {
        ...provided(),
        license_key: LICENSE_KEY,
        activation: activation({ hardware_id: THIS_MACHINE }),
        lease: 'x.y.z',
        lease_expires_at: '2030-01-01T00:00:00.000Z',
        message: 'This machine is now activated on your seat',
      },
    }));
    await openAsUser(api, '/dashboard');
    const machine = within(await screen.findByRole('region', { name: 'This machine' }, SLOW));
    expect((await machine.findByTestId('machine-next-step', undefined, SLOW)).textContent).toBe(
      'Uses your seat of the Business license Acme Research provides.',
    );
    await userEvent.setup().click(machine.getByRole('button', { name: 'Activate this machine' }));
    expect(await screen.findByText('This machine is activated', undefined, SLOW)).toBeTruthy();
    expect(bodyOf(api, ACTIVATE_SEAT)).toEqual(expect.objectContaining({ hardware_id: THIS_MACHINE }));
    expect(api.calls('POST /licenses/activate')).toHaveLength(0);
  });
});

describe('/licenses/:id: a license an organisation provides', () => {
  it('names who provides it instead of the key, and activates this machine on the member’s seat', async () => {
    api.on(`GET /licenses/${LICENSE_ID}`, () => ({ json: provided() }));
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
    api.on(`GET /licenses/${LICENSE_ID}/download`, () => ({
      json: { license_id: LICENSE_ID, releases: [] },
    }));
    api.on(ACTIVATE_SEAT, () => ({
      status: 201,
      json: {
        ...provided(),
        license_key: LICENSE_KEY,
        activation: activation({ hardware_id: THIS_MACHINE }),
        lease: 'x.y.z',
        lease_expires_at: '2030-01-01T00:00:00.000Z',
        message: 'This machine is now activated on your seat',
      },
    }));
    await openAsUser(api, `/licenses/${LICENSE_ID}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Business license' }, SLOW)).toBeTruthy();
    expect(screen.getByTestId('provided-by').textContent).toBe('Provided by Acme Research');
    expect(screen.queryByTestId('license-key')).toBeNull();
    expect(screen.getByText('Work laptop')).toBeTruthy();

    await userEvent
      .setup()
      .click(screen.getByRole('button', { name: 'Activate on this machine: Business license' }));
    expect(await screen.findByText('This machine is activated', undefined, SLOW)).toBeTruthy();
    expect(bodyOf(api, ACTIVATE_SEAT)).toEqual(expect.objectContaining({ hardware_id: THIS_MACHINE }));
    expect(document.body.textContent).not.toContain(LICENSE_KEY);
  });
});
