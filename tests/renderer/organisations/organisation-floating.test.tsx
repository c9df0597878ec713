import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FloatingHolder, FloatingPeaks, FloatingSeats } from '../../../src/shared/api/floating';
import { floatingPeaksSchema, floatingSeatsSchema } from '../../../src/shared/api/floating';
import { organisationSchema, type Organisation } from '../../../src/shared/api/organisations';
import { FakeApi } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';
import { makeInvitation, makeOrganisation, MEMBERS, NOW, ORG_ID } from './fixtures';

// An organisation on a floating plan: its seats are a pool its members' machines share, so the page
// says how many run at once instead of named seats, and its owner sees who holds them, frees one,
// and reads the most held at once per day.

const BASE = `/organisations/${ORG_ID}`;
const LICENSE = 'lic-acme';

const holder = (seat_id: string, device_name: string): FloatingHolder => ({
  seat_id,
  device_name,
  checked_out_at: NOW,
  last_heartbeat_at: NOW,
  held_until: '2026-11-27T10:15:00.000Z',
  borrowed_until: null,
});

let api: FakeApi;
let organisation: Organisation;
let seats: FloatingSeats;

beforeEach(async () => {
  api = await new FakeApi().start();
  organisation = organisationSchema.parse(
    makeOrganisation({
      seats: {
        bought: 3,
        assigned: 0,
        pending_invitations: 1,
        machines_per_seat: 2,
        floating: { concurrent: 3, lease_minutes: 15, max_borrow_days: 7 },
      },
    }),
  );
  seats = floatingSeatsSchema.parse({
    license_id: LICENSE,
    seats: 3,
    lease_minutes: 15,
    max_borrow_days: 7,
    in_use: [holder('seat-1', 'studio-mac'), holder('seat-2', 'cal-desk')],
  });
  const peaks: FloatingPeaks = floatingPeaksSchema.parse({
    license_id: LICENSE,
    seats: 3,
    days: Array.from({ length: 30 }, (_, index) => ({
      day: `2026-11-${String((index % 28) + 1).padStart(2, '0')}`,
      peak: index % 4,
    })),
  });
  api.on('GET /organisations', () => ({ json: [organisation] }));
  api.on(`GET ${BASE}`, () => ({ json: organisation }));
  api.on(`GET ${BASE}/members`, () => ({ json: MEMBERS.map((member) => ({ ...member, has_seat: false })) }));
  api.on(`GET ${BASE}/invitations`, () => ({ json: [makeInvitation()] }));
  api.on(`GET /licenses/${LICENSE}/floating/seats`, () => ({ json: seats }));
  api.on(`GET /licenses/${LICENSE}/floating/peaks`, () => ({ json: peaks }));
  api.on(`DELETE /licenses/${LICENSE}/floating/seats/seat-1`, () => {
    seats = { ...seats, in_use: seats.in_use.filter((seat) => seat.seat_id !== 'seat-1') };
    return { json: seats };
  });
});
afterEach(async () => {
  await api.close();
});

describe('organisation page on a floating plan', () => {
  it('says the seats float, with no named seat to assign, and the owner frees a seat of the pool', async () => {
    const services = await servicesFor(api, 'user');
    renderApp(services, BASE);
    await screen.findByRole('heading', { level: 1, name: organisation.name });
    expect(screen.getByTestId('organisation-seats').textContent).toBe('3 floating seats (at once)');
    expect((await screen.findByTestId('free-seats')).textContent).toMatch(/need no seat of their own/);

    const members = within(await screen.findByRole('table', { name: 'Members' }));
    expect(members.getAllByText('Floating').length).toBeGreaterThan(0);
    expect(members.queryByRole('button', { name: /Assign seat/ })).toBeNull();

    const section = within(
      (await screen.findByRole('heading', { level: 2, name: 'Floating seats' })).closest('section')!,
    );
    expect(section.getByText(/2 of 3 in use now/)).toBeTruthy();
    const holders = within(section.getByRole('table', { name: 'Floating seats' }));
    expect(holders.getByText('studio-mac')).toBeTruthy();
    expect(section.getByRole('figure', { name: /Most seats in use at once/ })).toBeTruthy();

    await userEvent.click(holders.getByRole('button', { name: 'Free the seat of studio-mac' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Free the seat of studio-mac?' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Free seat' }));
    await waitFor(() =>
      expect(api.calls(`DELETE /licenses/${LICENSE}/floating/seats/seat-1`)).toHaveLength(1),
    );
    await waitFor(() => expect(screen.queryByText('studio-mac')).toBeNull());
  });

  it('a plain member sees the pool’s size but not who holds its seats', async () => {
    organisation = { ...organisation, role: 'member' };
    const services = await servicesFor(api, 'user');
    renderApp(services, BASE);
    await screen.findByRole('heading', { level: 1, name: organisation.name });
    expect(screen.getByTestId('organisation-seats').textContent).toBe('3 floating seats (at once)');
    expect(screen.queryByRole('heading', { level: 2, name: 'Floating seats' })).toBeNull();
    expect(api.calls(`GET /licenses/${LICENSE}/floating/seats`)).toHaveLength(0);
  });
});
