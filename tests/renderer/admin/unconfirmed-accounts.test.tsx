import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AdminUser } from '../../../src/shared/api/admin';
import { FakeApi, problem } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';

const account = (index: number, extra: Partial<AdminUser> = {}): AdminUser => ({
  id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
  email: `user${index}@example.com`,
  full_name: `User ${index}`,
  company: null,
  role: 'user',
  status: 'active',
  email_verified: true,
  last_sign_in_at: null,
  created_at: '2025-01-01T10:00:00.000Z',
  updated_at: '2025-02-01T10:00:00.000Z',
  ...extra,
});

const confirmed = account(1);
const pending = account(2, { email_verified: false, full_name: 'Una Unconfirmed' });
const counts = { licenses: 0, active_activations: 0, payments: 0 };
const detailOf = (user: AdminUser, extra: Record<string, unknown> = {}) => ({
  ...user,
  email_verified_at: null,
  second_factors: { authenticator_app: false, passkeys: 0 },
  counts,
  ...extra,
});
const empty = { data: [], total: 0, page: 1, perPage: 5 };

let api: FakeApi;
beforeEach(async () => {
  api = await new FakeApi().start();
  api.on('GET /admin/users', (request) => {
    const verification = request.query.get('verification');
    const data = [confirmed, pending].filter(
      (user) => !verification || (verification === 'confirmed') === user.email_verified,
    );
    return { json: { data, total: data.length, page: 1, perPage: 10 } };
  });
  api.on(`GET /admin/users/${pending.id}`, () => ({ json: detailOf(pending) }));
  api.on('GET /admin/licenses', () => ({ json: empty }));
  api.on('GET /payments/admin/payments', () => ({ json: empty }));
  api.on(`GET /admin/users/${pending.id}/invoices`, () => ({ json: empty }));
});
afterEach(() => api.close());

async function openUsers(path = '/admin/users') {
  const services = await servicesFor(api, 'admin');
  const view = renderApp(services, path);
  await screen.findByRole('heading', { level: 1, name: 'Users' }, { timeout: 30_000 });
  return view;
}

const rowOf = async (email: string) =>
  (
    await within(await screen.findByRole('table', { name: 'Users' })).findByText(
      email,
      {},
      { timeout: 10_000 },
    )
  ).closest('tr') as HTMLElement;

describe('/admin/users: accounts whose e-mail is not confirmed', { timeout: 90_000 }, () => {
  it('an unconfirmed account has the badge; the E-mail filter goes to the server and the URL', async () => {
    const { router } = await openUsers();
    // One state each: an unconfirmed account cannot sign in, so it is not also called Active.
    expect(within(await rowOf(pending.email)).getByText('Unconfirmed')).toBeTruthy();
    expect(within(await rowOf(pending.email)).queryByText('Active')).toBeNull();
    expect(within(await rowOf(confirmed.email)).queryByText('Unconfirmed')).toBeNull();
    expect(within(await rowOf(confirmed.email)).getByText('Active')).toBeTruthy();

    fireEvent.change(screen.getByRole('combobox', { name: 'E-mail' }), { target: { value: 'unconfirmed' } });
    await waitFor(() => expect(router.state.location.search).toBe('?verification=unconfirmed'));
    await waitFor(() =>
      expect(api.calls('GET /admin/users').at(-1)?.query.get('verification')).toBe('unconfirmed'),
    );
    await waitFor(() => expect(screen.queryByText(confirmed.email)).toBeNull());
  });

  it('the drawer resends the link and marks the address as confirmed, with feedback; a refusal is shown', async () => {
    let resends = 0;
    api.on(`POST /admin/users/${pending.id}/resend-confirmation`, () => {
      resends += 1;
      return resends === 1
        ? { status: 202, json: { message: 'A new confirmation link is on its way' } }
        : problem(409, 'This account’s e-mail address is already confirmed', 'email_already_confirmed');
    });
    api.on(`PUT /admin/users/${pending.id}`, () => ({
      json: detailOf(pending, { email_verified: true, email_verified_at: '2025-03-01T10:00:00.000Z' }),
    }));
    await openUsers();
    await rowOf(pending.email);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: `Details of ${pending.email}` }));
    const drawer = within(await screen.findByRole('dialog', { name: 'User details: Una Unconfirmed' }));
    expect(drawer.getByRole('heading', { name: 'E-mail not confirmed' })).toBeTruthy();
    expect(drawer.getByText('Not confirmed yet')).toBeTruthy();
    expect(await drawer.findByText('Off: password only')).toBeTruthy();

    await user.click(drawer.getByRole('button', { name: 'Resend confirmation' }));
    expect(await screen.findByText('Confirmation link sent', {}, { timeout: 5000 })).toBeTruthy();
    await user.click(drawer.getByRole('button', { name: 'Resend confirmation' }));
    expect(await drawer.findByText('This account’s e-mail address is already confirmed')).toBeTruthy();

    await user.click(drawer.getByRole('button', { name: 'Mark as confirmed' }));
    await waitFor(() => expect(api.calls(`PUT /admin/users/${pending.id}`)).toHaveLength(1));
    expect(JSON.parse(api.calls(`PUT /admin/users/${pending.id}`)[0]!.body)).toEqual({
      email_verified: true,
    });
    expect(await screen.findByText(`${pending.email} can sign in now.`, {}, { timeout: 5000 })).toBeTruthy();
    await waitFor(() => expect(drawer.queryByRole('heading', { name: 'E-mail not confirmed' })).toBeNull());
    expect(drawer.queryByText('Unconfirmed')).toBeNull();
  });
});

describe('/admin/users: the drawer says how the account signs in', { timeout: 90_000 }, () => {
  it('shows when the address was confirmed and the second factors the server reports', async () => {
    api.on(`GET /admin/users/${confirmed.id}`, () => ({
      json: detailOf(confirmed, {
        email_verified_at: '2025-01-02T10:00:00.000Z',
        second_factors: { authenticator_app: true, passkeys: 2 },
      }),
    }));
    api.on(`GET /admin/users/${confirmed.id}/invoices`, () => ({ json: empty }));
    await openUsers();
    await rowOf(confirmed.email);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: `Details of ${confirmed.email}` }));
    const drawer = within(await screen.findByRole('dialog', { name: 'User details: User 1' }));
    expect(await drawer.findByText('On: Authenticator app and 2 passkeys')).toBeTruthy();
    expect(drawer.getByText(/^Confirmed on/)).toBeTruthy();
    expect(drawer.queryByRole('heading', { name: 'E-mail not confirmed' })).toBeNull();
  });
});

describe('/admin/users: Export CSV', { timeout: 90_000 }, () => {
  it('asks the server for every page of the filtered list and saves them as one CSV file', async () => {
    const blobs: Blob[] = [];
    const created = URL.createObjectURL;
    const revoked = URL.revokeObjectURL;
    URL.createObjectURL = (blob: Blob) => {
      blobs.push(blob);
      return 'blob:users';
    };
    URL.revokeObjectURL = () => undefined;
    try {
      await openUsers('/admin/users?verification=unconfirmed');
      await rowOf(pending.email);
      const user = userEvent.setup();
      await user.click(screen.getByRole('button', { name: 'Export CSV' }));
      expect(await screen.findByText('CSV exported', {}, { timeout: 5000 })).toBeTruthy();

      const exported = api.calls('GET /admin/users').at(-1)!.query;
      expect(Object.fromEntries(exported)).toMatchObject({
        verification: 'unconfirmed',
        page: '1',
        perPage: '100',
      });
      expect(blobs).toHaveLength(1);
      const text = (await blobs[0]!.text()).replace(/^\uFEFF/, '');
      const lines = text.split('\r\n');
      expect(lines[0]).toBe('E-mail,Name,Company,Role,Status,E-mail confirmed,Created,Last sign-in,ID');
      expect(lines[1]).toBe(
        `${pending.email},Una Unconfirmed,,User,Unconfirmed,No,${pending.created_at},,${pending.id}`,
      );
      expect(lines.slice(2)).toEqual(['']);
    } finally {
      URL.createObjectURL = created;
      URL.revokeObjectURL = revoked;
    }
  });
});
