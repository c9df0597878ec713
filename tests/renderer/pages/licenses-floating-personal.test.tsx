import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '../../../src/renderer/src/features/licenses/license-format';
import { localStorageKeys } from '../../../src/shared/storage-keys';
import type { FakeApi } from '../support/fake-api';
import {
  bodyOf,
  LICENSE_ID,
  LICENSE_KEY,
  license,
  openAsUser,
  SLOW,
  startLicenseApi,
  THIS_MACHINE,
} from './support-licenses/license-fixtures';

const CHECKOUT = 'POST /licensing/floating/checkout';
const ACTIVATE = 'POST /licenses/activate';

/** A personal license on a floating plan: 3 seats at once, none activated. */
const floating = () => license({ floating: true, activations_used: 0, max_activations: 1 });

const seatAnswer = {
  license_id: LICENSE_ID,
  seat_id: 'seat-1',
  seats: 3,
  in_use: 1,
  heartbeat_seconds: 300,
  max_borrow_days: 7,
  checked_out_at: '2026-12-05T10:00:00.000Z',
  held_until: '2026-12-05T10:15:00.000Z',
  borrowed_until: null,
  lease: 'x.y.z',
  lease_expires_at: '2026-12-05T10:15:00.000Z',
  message: 'A floating seat is yours while the app runs.',
};

let api: FakeApi;
beforeEach(async () => {
  api = await startLicenseApi();
  api.on(CHECKOUT, () => ({ status: 201, json: seatAnswer }));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await api.close();
});

describe('/licenses: a personal floating license is never activated', () => {
  it('“Activate on this machine” takes a seat of its pool with its key; no activation is asked for, and the app keeps the key', async () => {
    api.on('GET /licenses', () => ({ json: [floating()] }));
    const { services } = await openAsUser(api, '/licenses');
    const card = within(await screen.findByRole('article', { name: 'Pro license' }, SLOW));
    // Its activations say nothing of room: the button is offered even with max_activations taken.
    await userEvent.click(
      await card.findByRole('button', { name: 'Activate on this machine: Pro license' }, SLOW),
    );
    expect(await screen.findByText('This machine holds a floating seat', undefined, SLOW)).toBeTruthy();
    expect(screen.getByText(/Your Pro license has 3 floating seats; 1 in use now/)).toBeTruthy();
    expect(bodyOf(api, CHECKOUT)).toEqual(
      expect.objectContaining({ license_key: LICENSE_KEY, hardware_id: THIS_MACHINE }),
    );
    expect(api.calls(ACTIVATE)).toHaveLength(0);
    expect(services.local.getItem(localStorageKeys.licenseKey)).toBe(LICENSE_KEY);
  });

  it('a floating key typed in “Activate by key” (refused as license_floating) takes a seat of its pool instead', async () => {
    const message =
      'This license has floating seats: this machine takes one when the app runs, with no activation.';
    api.on(ACTIVATE, () => ({ status: 409, json: { detail: message, message, code: 'license_floating' } }));
    const { services } = await openAsUser(api, '/licenses');
    const form = within(await screen.findByRole('region', { name: 'Activate by key' }, SLOW));
    const user = userEvent.setup();
    await user.type(form.getByLabelText(/License key/), LICENSE_KEY);
    await user.click(form.getByRole('button', { name: 'Activate' }));
    expect(await screen.findByText('This machine holds a floating seat', undefined, SLOW)).toBeTruthy();
    expect(bodyOf(api, CHECKOUT)).toEqual(
      expect.objectContaining({ license_key: LICENSE_KEY, hardware_id: THIS_MACHINE }),
    );
    expect(services.local.getItem(localStorageKeys.licenseKey)).toBe(LICENSE_KEY);
    expect(form.queryByText(message)).toBeNull();
  });

  it('all seats out: the refusal is said beside the button, and nothing is kept', async () => {
    api.on('GET /licenses', () => ({ json: [floating()] }));
    const message =
      'All 3 floating seats are in use. Ask a holder to close the app, or try again after 2026-12-05T10:15:00.000Z.';
    api.on(CHECKOUT, () => ({
      status: 409,
      json: {
        detail: message,
        message,
        code: 'floating_seats_full',
        seats: 3,
        holders: [],
        retry_at: '2026-12-05T10:15:00.000Z',
        retry_after_seconds: 60,
      },
    }));
    const { services } = await openAsUser(api, '/licenses');
    const card = within(await screen.findByRole('article', { name: 'Pro license' }, SLOW));
    await userEvent.click(
      await card.findByRole('button', { name: 'Activate on this machine: Pro license' }, SLOW),
    );
    expect(await card.findByText(message, undefined, SLOW)).toBeTruthy();
    expect(services.local.getItem(localStorageKeys.licenseKey)).toBeNull();
  });

  it('its details page says it has floating seats instead of a seat meter, and offers no activation', async () => {
    api.on('GET /licenses', () => ({ json: [floating()] }));
    api.on(`GET /licenses/${LICENSE_ID}`, () => ({ json: { ...floating(), activations: [] } }));
    api.on(`GET /licenses/${LICENSE_ID}/download`, () => ({
      json: { license_id: LICENSE_ID, releases: [] },
    }));
    api.on(`GET /licenses/${LICENSE_ID}/floating/seats`, () => ({
      json: {
        license_id: LICENSE_ID,
        seats: 3,
        lease_minutes: 15,
        max_borrow_days: 7,
        in_use: [
          {
            seat_id: 'seat-desk',
            device_name: 'studio-mac',
            member: { user_id: 'user-2', name: 'Ada Lovelace' },
            checked_out_at: '2026-12-05T09:00:00.000Z',
            last_heartbeat_at: '2026-12-05T10:00:00.000Z',
            held_until: '2026-12-05T10:15:00.000Z',
            borrowed_until: null,
          },
          {
            seat_id: 'seat-trip',
            device_name: 'travel-laptop',
            checked_out_at: '2026-12-04T08:00:00.000Z',
            last_heartbeat_at: '2026-12-04T08:00:00.000Z',
            held_until: '2026-12-07T08:00:00.000Z',
            borrowed_until: '2026-12-07T08:00:00.000Z',
          },
        ],
      },
    }));
    await openAsUser(api, `/licenses/${LICENSE_ID}`);
    expect(await screen.findByTestId('floating-license-note', undefined, SLOW)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Activate this machine' })).toBeNull();
    // "Held until" says when each seat comes back by itself, dated as the page's other dates.
    const table = within(await screen.findByRole('table', { name: 'Floating seats' }, SLOW));
    const held = within(table.getByText('studio-mac').closest('tr') as HTMLElement);
    expect(held.getByText(formatDateTime('2026-12-05T10:15:00.000Z'))).toBeTruthy();
    // A member's seat names the member, as the server shows it to those allowed to see it.
    expect(held.getByText('Ada Lovelace')).toBeTruthy();
    expect(
      held.getByText(`Unless renewed; last check-in ${formatDateTime('2026-12-05T10:00:00.000Z')}`),
    ).toBeTruthy();
    const borrowed = within(table.getByText('travel-laptop').closest('tr') as HTMLElement);
    expect(borrowed.getByText(formatDateTime('2026-12-07T08:00:00.000Z'))).toBeTruthy();
    expect(borrowed.getByText('Borrowed for offline use')).toBeTruthy();
    expect(document.body.textContent).not.toContain('Checked in');
    await userEvent.click(screen.getByRole('button', { name: 'Activate on this machine: Pro license' }));
    expect(await screen.findByText('This machine holds a floating seat', undefined, SLOW)).toBeTruthy();
    expect(api.calls(ACTIVATE)).toHaveLength(0);
  });
});
