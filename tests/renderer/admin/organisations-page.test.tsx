import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  AdminOrganisationDetail,
  AdminOrganisationSummary,
} from '../../../src/renderer/src/features/admin/organisations/admin-organisations-endpoints';
import { FakeApi, problem, type RecordedRequest } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';

// The page is lazy and the session gate runs first: under a loaded machine that takes more than a second.
configure({ asyncUtilTimeout: 5000 });

const ORG_ID = '0b7e6f55-2c1d-4a8e-9f10-2a3b4c5d6e7f';
const OWNER_ID = '7f1c2a4e-1b2c-4d3e-8f90-123456789abc';
const MEMBER_ID = '5d2e3f4a-6b7c-4d8e-9f01-23456789abcd';
const SEATLESS_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const INVITATION_ID = '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f';
const at = (day: number) => new Date(Date.UTC(2026, 10, day, 9, 30)).toISOString();

const summary = (index: number, extra: Partial<AdminOrganisationSummary> = {}): AdminOrganisationSummary => ({
  id: index === 1 ? ORG_ID : `0b7e6f55-2c1d-4a8e-9f10-${String(index).padStart(12, '0')}`,
  name: `Team ${index}`,
  role: null,
  members_count: 3,
  seats: { bought: 3, assigned: 2, pending_invitations: 1, machines_per_seat: 2, floating: null },
  license_id: `lic-${index}`,
  subscription_id: `sub-${index}`,
  billing_details: null,
  created_at: at(1),
  updated_at: at(1),
  owner_email: `owner${index}@example.com`,
  ...extra,
});

const machine = {
  activation_id: 'act-1',
  device_name: 'build-box',
  label: 'Ana’s laptop',
  platform: 'linux',
  activated_at: at(2),
  last_seen_at: at(3),
};

const detail = (extra: Partial<AdminOrganisationDetail> = {}): AdminOrganisationDetail => ({
  ...summary(1),
  members: [
    {
      user_id: OWNER_ID,
      email: 'owner1@example.com',
      full_name: 'Olga Owner',
      role: 'owner',
      has_seat: true,
      seat_assigned_at: at(1),
      joined_at: at(1),
      machines: [],
    },
    {
      user_id: MEMBER_ID,
      email: 'ana@example.com',
      full_name: null,
      role: 'member',
      has_seat: true,
      seat_assigned_at: at(2),
      joined_at: at(2),
      machines: [machine],
    },
    {
      user_id: SEATLESS_ID,
      email: 'ben@example.com',
      full_name: 'Ben',
      role: 'admin',
      has_seat: false,
      seat_assigned_at: null,
      joined_at: at(2),
      machines: [],
    },
  ],
  invitations: [
    {
      id: INVITATION_ID,
      email: 'cleo@example.com',
      role: 'member',
      status: 'pending',
      invited_by_email: 'owner1@example.com',
      created_at: at(2),
      sent_at: at(2),
      expires_at: at(9),
      accepted_at: null,
    },
  ],
  subscription: {
    id: 'sub-1',
    status: 'active',
    plan_name: 'Business',
    seats: 3,
    current_period_end: at(30),
  },
  ...extra,
});

let api: FakeApi;
let lists: RecordedRequest[];

beforeEach(async () => {
  api = await new FakeApi().start();
  lists = [];
  api.on('GET /admin/organisations', (request) => {
    lists.push(request);
    const page = Number(request.query.get('page') ?? 1);
    const perPage = Number(request.query.get('perPage') ?? 10);
    const total = 12;
    const start = (page - 1) * perPage;
    const data = Array.from({ length: Math.max(0, Math.min(perPage, total - start)) }, (_, offset) =>
      summary(
        start + offset + 1,
        start + offset === 1 ? { seats: null, license_id: null, subscription_id: null } : {},
      ),
    );
    return { json: { data, total, page, perPage } };
  });
  api.on(`GET /admin/organisations/${ORG_ID}`, () => ({ json: detail() }));
});
afterEach(() => api.close());

async function open(path: string) {
  const services = await servicesFor(api, 'admin');
  const view = renderApp(services, path);
  await screen.findByRole('heading', { level: 1, name: 'Organizations' }, { timeout: 10_000 });
  return view;
}

const lastList = () => lists[lists.length - 1] as RecordedRequest;
const drawer = async () => within(await screen.findByRole('dialog', { name: 'Organization details' }));

describe('/admin/organisations', { timeout: 60_000 }, () => {
  it('sends the page, search and sort to the server and lists name, owner, members, seats used of bought and created', async () => {
    await open('/admin/organisations?page=1&perPage=5&search=ana%40example.com&sort=name');
    await waitFor(() => expect(lists.length).toBeGreaterThan(0));
    expect(Object.fromEntries(lastList().query)).toEqual({
      page: '1',
      perPage: '5',
      search: 'ana@example.com',
      sort: 'name',
    });
    const rows = within(await screen.findByRole('table', { name: 'Organizations' }));
    expect(await rows.findByRole('button', { name: 'Team 1' })).toBeTruthy();
    expect(rows.getByText('owner1@example.com')).toBeTruthy();
    expect(rows.getAllByText('2 of 3').length).toBe(4);
    // An organisation that has not bought yet says so instead of "0 of 0".
    expect(rows.getByText('None bought')).toBeTruthy();
  });

  it('typing a search asks the server for it', async () => {
    const user = userEvent.setup();
    await open('/admin/organisations');
    await user.type(await screen.findByRole('searchbox', { name: 'Search organizations' }), 'ana@');
    await waitFor(() => expect(lastList().query.get('search')).toBe('ana@'));
  });

  it('the drawer shows members with role, seat and machines last seen, the invitations and the subscription', async () => {
    const user = userEvent.setup();
    await open('/admin/organisations');
    await user.click(await screen.findByRole('button', { name: 'View the organization Team 1' }));
    const view = await drawer();
    expect(await view.findByText('Olga Owner')).toBeTruthy();
    expect(view.getByText('2 of 3 seats used · 1 invitation pending · 2 machines per seat')).toBeTruthy();
    const machines = view.getByRole('list', { name: 'Machines of ana@example.com' });
    expect(within(machines).getByText('Ana’s laptop')).toBeTruthy();
    expect(machines.querySelector('time')?.getAttribute('dateTime')).toBe(at(3));
    expect(view.getAllByText('No seat').length).toBe(1);
    expect(view.getByText('cleo@example.com')).toBeTruthy();
    expect(view.getByText('Pending')).toBeTruthy();
    expect(view.getByText('Business')).toBeTruthy();
    expect(view.getByRole('link', { name: 'Open in Subscriptions' }).getAttribute('href')).toBe(
      '/admin/subscriptions?subscription=sub-1',
    );
    // The owner is not removed from here: ownership passes by a transfer first.
    expect(view.queryByRole('button', { name: 'Remove Olga Owner' })).toBeNull();
  });

  it('removing a member confirms what stops working, then calls the customer route; a refusal stays in the dialog', async () => {
    const user = userEvent.setup();
    await open(`/admin/organisations?organisation=${ORG_ID}`);
    const view = await drawer();
    api.on(`DELETE /organisations/${ORG_ID}/members/${MEMBER_ID}`, () =>
      problem(404, 'Organization not found', 'organisation_not_found'),
    );
    await user.click(await view.findByRole('button', { name: 'Remove ana@example.com' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Remove ana@example.com from Team 1?' }));
    expect(dialog.getByText(/machine stops working at the next license check/)).toBeTruthy();
    await user.click(dialog.getByRole('button', { name: 'Remove member' }));
    expect(await dialog.findByText('Organization not found')).toBeTruthy();

    api.on(`DELETE /organisations/${ORG_ID}/members/${MEMBER_ID}`, () => ({ status: 204 }));
    const after = detail();
    after.members = after.members.filter((member) => member.user_id !== MEMBER_ID);
    api.on(`GET /admin/organisations/${ORG_ID}`, () => ({ json: after }));
    await user.click(dialog.getByRole('button', { name: 'Remove member' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Remove ana@example.com from Team 1?' })).toBeNull(),
    );
    expect(await screen.findByText('Member removed')).toBeTruthy();
    await waitFor(() => expect(view.queryByText('ana@example.com')).toBeNull());
    expect(api.calls(`DELETE /organisations/${ORG_ID}/members/${MEMBER_ID}`)).toHaveLength(2);
  });

  it('takes back a seat, assigns one, and revokes an invitation through the customer routes', async () => {
    const user = userEvent.setup();
    await open(`/admin/organisations?organisation=${ORG_ID}`);
    const view = await drawer();
    const seat = `/organisations/${ORG_ID}/members/${MEMBER_ID}/seat`;
    const ana = detail().members[1]!;
    api.on(`DELETE ${seat}`, () => ({
      json: { ...ana, has_seat: false, seat_assigned_at: null, machines: [] },
    }));
    await user.click(await view.findByRole('button', { name: 'Take back seat of ana@example.com' }));
    const takeBack = within(
      await screen.findByRole('dialog', { name: 'Take back the seat of ana@example.com?' }),
    );
    await user.click(takeBack.getByRole('button', { name: 'Take back seat' }));
    await waitFor(() => expect(api.calls(`DELETE ${seat}`)).toHaveLength(1));

    const assign = `/organisations/${ORG_ID}/members/${SEATLESS_ID}/seat`;
    api.on(`PUT ${assign}`, () => problem(409, 'Every seat is taken', 'seats_full'));
    await user.click(view.getByRole('button', { name: 'Assign seat to Ben' }));
    expect(await view.findByText('Every seat is taken')).toBeTruthy();
    expect(api.calls(`PUT ${assign}`)).toHaveLength(1);

    const invitation = `/organisations/${ORG_ID}/invitations/${INVITATION_ID}`;
    api.on(`DELETE ${invitation}`, () => ({
      json: { ...detail().invitations[0]!, status: 'revoked' },
    }));
    await user.click(view.getByRole('button', { name: 'Revoke invitation of cleo@example.com' }));
    const revoke = within(
      await screen.findByRole('dialog', { name: 'Revoke the invitation of cleo@example.com?' }),
    );
    await user.click(revoke.getByRole('button', { name: 'Revoke invitation' }));
    await waitFor(() => expect(api.calls(`DELETE ${invitation}`)).toHaveLength(1));
  });

  it('transfers ownership to the member chosen (the owner is not offered) and refuses to send without one', async () => {
    const user = userEvent.setup();
    await open(`/admin/organisations?organisation=${ORG_ID}`);
    const view = await drawer();
    const transfer = `/organisations/${ORG_ID}/transfer-ownership`;
    await user.click(await view.findByRole('button', { name: 'Transfer ownership…' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Transfer ownership of Team 1' }));
    await user.click(dialog.getByRole('button', { name: 'Transfer ownership' }));
    expect(await dialog.findByText('Choose the member who becomes the owner')).toBeTruthy();
    expect(api.calls(`POST ${transfer}`)).toHaveLength(0);

    const select = dialog.getByRole('combobox', { name: 'New owner' }) as HTMLSelectElement;
    // The owner is not offered; the others are, by name and e-mail.
    expect([...select.options].map((option) => option.text)).toEqual([
      'Choose a member',
      'ana@example.com',
      'Ben (ben@example.com)',
    ]);
    const { owner_email: _owner, ...organisation } = summary(1);
    api.on(`POST ${transfer}`, () => ({ json: { ...organisation, role: null } }));
    await user.selectOptions(select, 'Ben (ben@example.com)');
    await user.click(dialog.getByRole('button', { name: 'Transfer ownership' }));
    await waitFor(() => expect(api.calls(`POST ${transfer}`)).toHaveLength(1));
    expect(JSON.parse(api.calls(`POST ${transfer}`)[0]!.body)).toEqual({ user_id: SEATLESS_ID });
    expect(await screen.findByText('Ownership transferred')).toBeTruthy();
  });

  it('an unknown organisation in the URL says it could not be loaded', async () => {
    const gone = '11111111-2222-4333-8444-555555555555';
    api.on(`GET /admin/organisations/${gone}`, () =>
      problem(404, 'Organization not found', 'organisation_not_found'),
    );
    await open(`/admin/organisations?organisation=${gone}`);
    expect(await (await drawer()).findByText('Organization not found')).toBeTruthy();
  });
});
