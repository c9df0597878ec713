import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Invitation, Organisation, OrganisationMember } from '../../../src/shared/api/organisations';
import { FakeApi, problem } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';
import { BEA_ID, CAL_ID, makeInvitation, makeOrganisation, MEMBERS, ORG_ID } from './fixtures';

const BASE = `/organisations/${ORG_ID}`;

let api: FakeApi;
let organisation: Organisation;
let members: OrganisationMember[];
let invitations: Invitation[];

beforeEach(async () => {
  api = await new FakeApi().start();
  organisation = makeOrganisation();
  members = MEMBERS;
  invitations = [makeInvitation()];
  api.on('GET /organisations', () => ({ json: [organisation] }));
  api.on(`GET ${BASE}`, () => ({ json: organisation }));
  api.on(`GET ${BASE}/members`, () => ({ json: members }));
  api.on(`GET ${BASE}/invitations`, () => ({ json: invitations }));
});
afterEach(async () => {
  await api.close();
});

async function openOrganisation() {
  const services = await servicesFor(api, 'user');
  const view = renderApp(services, BASE);
  await screen.findByRole('heading', { level: 1, name: organisation.name });
  const table = await screen.findByRole('table', { name: 'Members' });
  return { ...view, members: within(table) };
}

const row = (name: string) =>
  within(screen.getByRole('rowheader', { name: new RegExp(name) }).closest('tr')!);
const body = (route: string, index = 0) => JSON.parse(api.calls(route)[index]?.body || 'null') as unknown;

describe('organisation page: the owner', () => {
  it('shows the seats, the members with role, seat and machines, and the invitations', async () => {
    await openOrganisation();
    expect(screen.getByTestId('organisation-seats').textContent).toBe('2 of 3 seats used');
    expect(screen.getByTestId('organisation-summary').textContent).toContain('1 pending invitation');
    const bea = row('Bea Jones');
    expect(bea.getByText('Admin')).toBeTruthy();
    expect(bea.getByText('Yes')).toBeTruthy();
    expect(bea.getByText(/bea-laptop/)).toBeTruthy();
    expect(bea.getByText(/Last seen/)).toBeTruthy();
    expect(row('cal@example.com').getByText('No')).toBeTruthy();
    const owner = row('Ada');
    expect(owner.getByText('(you)')).toBeTruthy();
    // The owner's own row: no removal and no role change, each saying why.
    expect(owner.getByRole('button', { name: 'Remove Ada' }).getAttribute('aria-disabled')).toBe('true');
    expect(owner.getByRole('button', { name: 'Change role of Ada' }).getAttribute('aria-disabled')).toBe(
      'true',
    );
    const invitationsTable = within(await screen.findByRole('table', { name: 'Invitations' }));
    expect(invitationsTable.getByText('dan@example.com')).toBeTruthy();
    expect(invitationsTable.getByText('Pending')).toBeTruthy();
    // The owner cannot leave, and is told why.
    expect(screen.getByText(/As its owner you cannot leave/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Leave organization' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Buy more seats' })).toBeTruthy();
  });

  it('changes a role, assigns a seat and takes one back', async () => {
    api.on(`PATCH ${BASE}/members/${BEA_ID}`, () => ({ json: { ...members[1]!, role: 'member' } }));
    api.on(`PUT ${BASE}/members/${CAL_ID}/seat`, () => ({ json: { ...members[2]!, has_seat: true } }));
    api.on(`DELETE ${BASE}/members/${BEA_ID}/seat`, () => ({ json: { ...members[1]!, has_seat: false } }));
    await openOrganisation();

    await userEvent.click(row('Bea Jones').getByRole('button', { name: 'Change role of Bea Jones' }));
    const roleDialog = within(await screen.findByRole('dialog', { name: 'Change the role of Bea Jones' }));
    await userEvent.click(roleDialog.getByRole('radio', { name: /Member/ }));
    await userEvent.click(roleDialog.getByRole('button', { name: 'Change role' }));
    await waitFor(() => expect(body(`PATCH ${BASE}/members/${BEA_ID}`)).toEqual({ role: 'member' }));

    await userEvent.click(
      row('cal@example.com').getByRole('button', { name: 'Assign seat to cal@example.com' }),
    );
    await waitFor(() => expect(api.calls(`PUT ${BASE}/members/${CAL_ID}/seat`)).toHaveLength(1));

    await userEvent.click(row('Bea Jones').getByRole('button', { name: 'Take back seat of Bea Jones' }));
    const seatDialog = within(
      await screen.findByRole('dialog', { name: 'Take back the seat of Bea Jones?' }),
    );
    expect(
      seatDialog.getByText(/stops working on their machines at its next check \(1 machine now\)/),
    ).toBeTruthy();
    await userEvent.click(seatDialog.getByRole('button', { name: 'Take back seat' }));
    await waitFor(() => expect(api.calls(`DELETE ${BASE}/members/${BEA_ID}/seat`)).toHaveLength(1));
  });

  it('transfers the ownership after a confirmation, and keeps a refusal in the dialog', async () => {
    let refuse = true;
    api.on(`POST ${BASE}/transfer-ownership`, () =>
      refuse
        ? problem(409, 'Bea Jones must hold a seat to own the organization', 'conflict')
        : { json: { ...organisation, role: 'admin' } },
    );
    await openOrganisation();
    await userEvent.click(row('Bea Jones').getByRole('button', { name: 'Transfer ownership to Bea Jones' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Make Bea Jones the owner?' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Transfer ownership' }));
    expect((await dialog.findByRole('alert')).textContent).toContain(
      'Bea Jones must hold a seat to own the organization',
    );
    refuse = false;
    await userEvent.click(dialog.getByRole('button', { name: 'Transfer ownership' }));
    await waitFor(() => expect(api.calls(`POST ${BASE}/transfer-ownership`)).toHaveLength(2));
    expect(body(`POST ${BASE}/transfer-ownership`, 1)).toEqual({ user_id: BEA_ID });
  });

  it('removes a member', async () => {
    api.on(`DELETE ${BASE}/members/${CAL_ID}`, () => ({ status: 204 }));
    await openOrganisation();
    await userEvent.click(row('cal@example.com').getByRole('button', { name: 'Remove cal@example.com' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Remove cal@example.com?' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Remove member' }));
    await waitFor(() => expect(api.calls(`DELETE ${BASE}/members/${CAL_ID}`)).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('invites by e-mail with a role, shows a refusal as the server words it, resends and revokes', async () => {
    let full = true;
    api.on(`POST ${BASE}/invitations`, () =>
      full
        ? problem(409, 'All 3 seats are taken or promised to pending invitations', 'seats_full')
        : {
            status: 201,
            json: makeInvitation({
              id: 'b1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
              email: 'eve@example.com',
              role: 'admin',
            }),
          },
    );
    api.on(`POST ${BASE}/invitations/${invitations[0]!.id}/resend`, () => ({ json: invitations[0]! }));
    api.on(`DELETE ${BASE}/invitations/${invitations[0]!.id}`, () => ({
      json: { ...invitations[0]!, status: 'revoked' },
    }));
    await openOrganisation();
    const form = within(await screen.findByRole('form', { name: 'Invite someone' }));
    await userEvent.type(form.getByRole('textbox', { name: /E-mail/ }), 'eve@example.com');
    await userEvent.selectOptions(form.getByRole('combobox', { name: 'Role' }), 'admin');
    await userEvent.click(form.getByRole('button', { name: 'Send invitation' }));
    expect((await form.findByRole('alert')).textContent).toContain(
      'All 3 seats are taken or promised to pending invitations',
    );
    full = false;
    await userEvent.click(form.getByRole('button', { name: 'Send invitation' }));
    await waitFor(() => expect(api.calls(`POST ${BASE}/invitations`)).toHaveLength(2));
    expect(body(`POST ${BASE}/invitations`, 1)).toEqual({ email: 'eve@example.com', role: 'admin' });

    const invitation = within(screen.getByRole('table', { name: 'Invitations' }));
    await userEvent.click(
      invitation.getByRole('button', { name: 'Send again the invitation to dan@example.com' }),
    );
    await waitFor(() =>
      expect(api.calls(`POST ${BASE}/invitations/${invitations[0]!.id}/resend`)).toHaveLength(1),
    );
    await userEvent.click(
      invitation.getByRole('button', { name: 'Revoke the invitation to dan@example.com' }),
    );
    const dialog = within(
      await screen.findByRole('dialog', { name: 'Revoke the invitation to dan@example.com?' }),
    );
    await userEvent.click(dialog.getByRole('button', { name: 'Revoke invitation' }));
    await waitFor(() =>
      expect(api.calls(`DELETE ${BASE}/invitations/${invitations[0]!.id}`)).toHaveLength(1),
    );
  });
  it('saves the organisation’s billing details with the billing form, on the organisation', async () => {
    api.on(`PATCH ${BASE}`, (request) => {
      const { billing_details } = JSON.parse(request.body) as { billing_details: Record<string, unknown> };
      organisation = makeOrganisation({
        billing_details: {
          name: 'Acme Studio LLP',
          address_line1: '12 MG Road',
          address_line2: null,
          city: 'Bengaluru',
          postal_code: '560001',
          region: 'Karnataka',
          country: 'IN',
          tax_id: null,
          updated_at: '2026-11-27T11:00:00.000Z',
          ...billing_details,
        },
      });
      return { json: organisation };
    });
    await openOrganisation();
    const billing = within(screen.getByRole('region', { name: 'Billing details' }));
    expect(billing.getByText(/printed on Acme Studio’s invoices/)).toBeTruthy();
    await userEvent.type(billing.getByRole('textbox', { name: /Billing name/ }), 'Acme Studio LLP');
    await userEvent.type(billing.getByRole('textbox', { name: /^Address\s*\*?$/ }), '12 MG Road');
    await userEvent.type(billing.getByRole('textbox', { name: /City/ }), 'Bengaluru');
    await userEvent.type(billing.getByRole('textbox', { name: /PIN code/ }), '560001');
    await userEvent.selectOptions(billing.getByRole('combobox', { name: /State/ }), 'Karnataka');
    await userEvent.click(billing.getByRole('button', { name: 'Save billing details' }));
    await waitFor(() =>
      expect(body(`PATCH ${BASE}`)).toEqual({
        billing_details: {
          name: 'Acme Studio LLP',
          address_line1: '12 MG Road',
          address_line2: null,
          city: 'Bengaluru',
          postal_code: '560001',
          region: 'Karnataka',
          country: 'IN',
          tax_id: null,
        },
      }),
    );
    // Not the customer's own details.
    expect(api.calls('PUT /billing/details')).toHaveLength(0);
  });
});

describe('organisation page: admins and members', () => {
  it('lets an admin manage but not transfer the ownership, and leave', async () => {
    organisation = makeOrganisation({ role: 'admin' });
    api.on(`POST ${BASE}/leave`, () => ({ status: 204 }));
    const { router } = await openOrganisation();
    expect(row('Bea Jones').getByRole('button', { name: 'Remove Bea Jones' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Transfer ownership/ })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Leave organization' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Leave Acme Studio?' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Leave organization' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/organisations'));
    expect(api.calls(`POST ${BASE}/leave`)).toHaveLength(1);
  });

  it('shows a member the list read-only, without invitations or billing details', async () => {
    organisation = makeOrganisation({ role: 'member' });
    await openOrganisation();
    expect(screen.queryByRole('columnheader', { name: 'Actions' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Remove|Assign|Take back|Change role/ })).toBeNull();
    expect(screen.queryByRole('table', { name: 'Invitations' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Billing details' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Buy more seats' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Leave organization' })).toBeTruthy();
    expect(api.calls(`GET ${BASE}/invitations`)).toHaveLength(0);
  });

  it('shows the server’s message when a member is refused leaving', async () => {
    organisation = makeOrganisation({ role: 'member' });
    api.on(`POST ${BASE}/leave`, () => problem(409, 'Leaving is not possible right now', 'conflict'));
    await openOrganisation();
    await userEvent.click(screen.getByRole('button', { name: 'Leave organization' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Leave Acme Studio?' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Leave organization' }));
    expect((await dialog.findByRole('alert')).textContent).toContain('Leaving is not possible right now');
  });

  it('tells an outsider the organisation was not found', async () => {
    api.on(`GET ${BASE}`, () => problem(404, 'Organization not found', 'organisation_not_found'));
    const services = await servicesFor(api, 'user');
    renderApp(services, BASE);
    expect((await screen.findByRole('alert')).textContent).toContain('Organization not found');
  });
});
