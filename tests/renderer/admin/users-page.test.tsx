import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadPasswordRule } from '../../../src/renderer/src/features/auth/password-strength';
import type { AdminUser } from '../../../src/shared/api/admin';
import { FakeApi, problem, type RecordedRequest } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';

/** What the detail adds about signing in: a confirmed address and no second factor. */
const signInState = {
  email_verified_at: '2025-01-01T10:00:00.000Z',
  second_factors: { authenticator_app: false, passkeys: 0 },
};

/** An account as GET /admin/users lists it. */
const account = (index: number, extra: Partial<AdminUser> = {}): AdminUser => ({
  id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
  email: `user${index}@example.com`,
  full_name: `User ${index}`,
  company: null,
  role: 'user',
  status: 'active',
  email_verified: true,
  last_sign_in_at: null,
  created_at: `2025-01-${String((index % 28) + 1).padStart(2, '0')}T10:00:00.000Z`,
  updated_at: '2025-02-01T10:00:00.000Z',
  ...extra,
});

/** A small in-memory `/admin/users` with paging, search and the role filter, like the server's. */
class UsersBackend {
  users: AdminUser[];
  constructor(count: number) {
    this.users = Array.from({ length: count }, (_, index) => account(index + 1));
  }
  install(api: FakeApi) {
    api.on('GET /admin/users', (request) => {
      const page = Number(request.query.get('page') ?? 1);
      const perPage = Number(request.query.get('perPage') ?? 10);
      const search = request.query.get('search') ?? '';
      const role = request.query.get('role');
      const matching = this.users.filter(
        (user) => (!search || user.email.includes(search)) && (!role || user.role === role),
      );
      return {
        json: {
          data: matching.slice((page - 1) * perPage, page * perPage),
          total: matching.length,
          page,
          perPage,
        },
      };
    });
    api.on('POST /admin/users', (request) => {
      const body = JSON.parse(request.body) as { email: string; full_name?: string; role: 'user' | 'admin' };
      const created = account(this.users.length + 1, {
        email: body.email,
        full_name: body.full_name ?? null,
        role: body.role,
        created_at: new Date().toISOString(),
      });
      this.users.unshift(created);
      return {
        status: 201,
        json: { ...created, ...signInState, counts: { licenses: 0, active_activations: 0, payments: 0 } },
      };
    });
    for (const user of this.users) {
      api.on(`GET /admin/users/${user.id}`, () => ({
        json: {
          ...this.find(user.id),
          ...signInState,
          counts: { licenses: 2, active_activations: 1, payments: 3 },
        },
      }));
      api.on(`PUT /admin/users/${user.id}`, (request) => {
        const saved = { ...this.find(user.id)!, ...(JSON.parse(request.body) as object) };
        this.users = this.users.map((item) => (item.id === user.id ? saved : item));
        return {
          json: { ...saved, ...signInState, counts: { licenses: 0, active_activations: 0, payments: 0 } },
        };
      });
      api.on(`DELETE /admin/users/${user.id}`, () => {
        this.users = this.users.filter((item) => item.id !== user.id);
        return { status: 204, body: '' };
      });
    }
  }
  find(id: string) {
    return this.users.find((user) => user.id === id);
  }
}

let api: FakeApi;
let backend: UsersBackend;
// The strength meter loads its rule (zxcvbn) on first use; loading it once here keeps that
// one-off cost out of the time each test allows.
beforeAll(async () => {
  await loadPasswordRule();
}, 30_000);
beforeEach(async () => {
  api = await new FakeApi().start();
  backend = new UsersBackend(35);
  backend.install(api);
});
afterEach(() => api.close());

async function openUsers(path = '/admin/users') {
  const services = await servicesFor(api, 'admin');
  const view = renderApp(services, path);
  await screen.findByRole('heading', { level: 1, name: 'Users' }, { timeout: 30_000 });
  return view;
}

const table = () => screen.getByRole('table', { name: 'Users' });
const lastList = (): RecordedRequest => {
  const calls = api.calls('GET /admin/users');
  return calls[calls.length - 1]!;
};
const rowOf = (email: string) => screen.getByText(email).closest('tr')!;
/** Types into a field at once (typing key by key is slow under jsdom and adds nothing here). */
const fill = (field: HTMLElement, value: string) => fireEvent.change(field, { target: { value } });
/** Waits for the list to show `email` (the first page loads after the lazy page and the session gate). */
const listed = async (email: string) =>
  within(await screen.findByRole('table', { name: 'Users' })).findByText(email, {}, { timeout: 10_000 });

describe('/admin/users', { timeout: 90_000 }, () => {
  it('the URL query drives the request: page, page size, search, sort and every filter reach the server', async () => {
    await openUsers(
      '/admin/users?page=2&perPage=25&search=user1&sort=email&role=user&status=active&from=2025-01-01&to=2025-01-31',
    );
    await waitFor(() => expect(api.calls('GET /admin/users').length).toBeGreaterThan(0));
    const query = lastList().query;
    expect(Object.fromEntries(query)).toEqual({
      page: '2',
      perPage: '25',
      search: 'user1',
      sort: 'email',
      role: 'user',
      status: 'active',
      from: '2025-01-01',
      to: '2025-01-31',
    });
    expect((screen.getByLabelText('Role') as HTMLSelectElement).value).toBe('user');
    expect((screen.getByLabelText('Search users') as HTMLInputElement).value).toBe('user1');
  });

  it('lists a page, pages on with "Next page" and "Page N", and "Rows per page" goes back to page 1', async () => {
    const { router } = await openUsers();
    expect(await listed('user1@example.com')).toBeTruthy();
    expect(screen.getByText('Showing 1–10 of 35 users')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(lastList().query.get('page')).toBe('2'));
    expect(await within(table()).findByText('user11@example.com')).toBeTruthy();
    expect(router.state.location.search).toBe('?page=2');

    await userEvent.click(screen.getByRole('button', { name: 'Page 4' }));
    expect(await within(table()).findByText('user35@example.com')).toBeTruthy();
    expect(screen.getByText('Showing 31–35 of 35 users')).toBeTruthy();

    await userEvent.selectOptions(screen.getByLabelText('Rows per page'), '25');
    await waitFor(() =>
      expect(Object.fromEntries(lastList().query)).toMatchObject({ page: '1', perPage: '25' }),
    );
    expect(router.state.location.search).toBe('?perPage=25');
  });

  it('a filter and a sort header change the request and go back to page 1', async () => {
    backend.users[3] = { ...backend.users[3]!, role: 'admin' };
    const { router } = await openUsers('/admin/users?page=3');
    await listed('user21@example.com');
    await userEvent.selectOptions(screen.getByLabelText('Role'), 'admin');
    await waitFor(() =>
      expect(Object.fromEntries(lastList().query)).toMatchObject({ page: '1', role: 'admin' }),
    );
    expect(await within(table()).findByText('user4@example.com')).toBeTruthy();
    await userEvent.click(within(table()).getByRole('button', { name: /^Status/ }));
    await waitFor(() => expect(lastList().query.get('sort')).toBe('status'));
    expect(router.state.location.search).toBe('?sort=status&role=admin');
  });

  it('a page past the end (an old link) shows the last page in place of it, so Back leaves the list', async () => {
    const { router } = await openUsers('/admin/users?page=9');
    await waitFor(() => expect(router.state.location.search).toBe('?page=4'), { timeout: 10_000 });
    // Replaced, not pushed: Back does not return to page 9 and bounce forward again.
    expect(router.state.historyAction).toBe('REPLACE');
    // The list may still be loading once the address has changed: wait for the table itself.
    expect(await listed('user31@example.com')).toBeTruthy();
  });

  it('a date range that ends before it starts is not sent; the fields say what to fix', async () => {
    await openUsers('/admin/users?from=2025-03-01&to=2025-01-01');
    expect(
      await screen.findByText('Created from must be on or before Created to', {}, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('The start date is after the end date');
    expect(api.calls('GET /admin/users').filter((call) => call.query.get('from'))).toHaveLength(0);
  });

  it('New user: the form is validated before anything is sent', async () => {
    await openUsers();
    await userEvent.click(screen.getByRole('button', { name: 'New user' }));
    const dialog = await screen.findByRole('dialog', { name: 'New user' });
    fill(within(dialog).getByLabelText(/^E-mail/), 'not-an-email');
    fill(within(dialog).getByLabelText(/^Password/), 'short');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create user' }));
    expect(await within(dialog).findByText('Enter a valid e-mail address')).toBeTruthy();
    expect(within(dialog).getByText('Password must be at least 8 characters')).toBeTruthy();
    expect(api.calls('POST /admin/users')).toHaveLength(0);
  });

  it('New user → Create user: the account is created and appears in the list, with a toast', async () => {
    await openUsers();
    await listed('user1@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'New user' }));
    const dialog = await screen.findByRole('dialog', { name: 'New user' });
    fill(within(dialog).getByLabelText(/^E-mail/), '  Grace@Example.com ');
    fill(within(dialog).getByLabelText(/^Full name/), 'Grace Hopper');
    fill(within(dialog).getByLabelText(/^Password/), 'correct horse battery');
    await userEvent.selectOptions(within(dialog).getByLabelText(/^Role/), 'admin');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create user' }));

    await waitFor(() => expect(api.calls('POST /admin/users')).toHaveLength(1));
    expect(JSON.parse(api.calls('POST /admin/users')[0]!.body)).toEqual({
      email: 'grace@example.com',
      password: 'correct horse battery',
      role: 'admin',
      status: 'active',
      full_name: 'Grace Hopper',
      email_verified: true,
    });
    expect(await screen.findByText('User created', {}, { timeout: 5000 })).toBeTruthy();
    expect(await within(table()).findByText('grace@example.com')).toBeTruthy();
    expect(within(rowOf('grace@example.com')).getByText('Administrator')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New user' })).toBeNull());
  });

  it('New user: the server’s refusal is shown in the form', async () => {
    api.on('POST /admin/users', () =>
      problem(409, 'Another account already uses the e-mail address user1@example.com', 'email_taken'),
    );
    await openUsers();
    await userEvent.click(screen.getByRole('button', { name: 'New user' }));
    const dialog = await screen.findByRole('dialog', { name: 'New user' });
    fill(within(dialog).getByLabelText(/^E-mail/), 'user1@example.com');
    fill(within(dialog).getByLabelText(/^Password/), 'correct horse battery');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create user' }));
    expect(
      await within(dialog).findByText('Another account already uses the e-mail address user1@example.com'),
    ).toBeTruthy();
  });

  it('Edit: only the changed fields are sent and the row updates', async () => {
    await openUsers();
    await listed('user2@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Edit user2@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit user2@example.com' });
    expect((within(dialog).getByLabelText(/^Full name/) as HTMLInputElement).value).toBe('User 2');
    await userEvent.selectOptions(within(dialog).getByLabelText(/^Status/), 'disabled');
    expect(within(dialog).getByText('Saving signs this user out everywhere at once.')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(api.calls(`PUT /admin/users/${account(2).id}`)).toHaveLength(1));
    expect(JSON.parse(api.calls(`PUT /admin/users/${account(2).id}`)[0]!.body)).toEqual({
      status: 'disabled',
    });
    expect(await screen.findByText('User updated', {}, { timeout: 5000 })).toBeTruthy();
    await waitFor(() => expect(within(rowOf('user2@example.com')).getByText('Disabled')).toBeTruthy());
  });

  it('Edit: the last administrator refusal (409 last_admin) is shown in the form', async () => {
    const message =
      'At least one active administrator must remain. Make another account an administrator first.';
    api.on(`PUT /admin/users/${account(1).id}`, () => problem(409, message, 'last_admin'));
    await openUsers();
    await listed('user1@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Edit user1@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit user1@example.com' });
    await userEvent.selectOptions(within(dialog).getByLabelText(/^Role/), 'admin');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await within(dialog).findByText(message)).toBeTruthy();
  });

  it('Delete asks first, naming the account; the own-account refusal (400) is shown; a confirmed delete removes the row', async () => {
    const own = 'You cannot delete your own account. Ask another administrator to do it.';
    api.on(`DELETE /admin/users/${account(1).id}`, () => problem(400, own, 'own_account'));
    await openUsers();
    await listed('user1@example.com');

    await userEvent.click(screen.getByRole('button', { name: 'Delete user1@example.com' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete user1@example.com?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete user' }));
    expect(await within(dialog).findByText(own)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Delete user1@example.com?' })).toBeNull(),
    );

    await userEvent.click(screen.getByRole('button', { name: 'Delete user3@example.com' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete user3@example.com?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete user' }));
    await waitFor(() => expect(api.calls(`DELETE /admin/users/${account(3).id}`)).toHaveLength(1));
    expect(await screen.findByText('User deleted', {}, { timeout: 5000 })).toBeTruthy();
    await waitFor(() => expect(within(table()).queryByText('user3@example.com')).toBeNull());
    expect(screen.getByText('Showing 1–10 of 34 users')).toBeTruthy();
  });

  it('details: counts, the user’s licenses and payments (filtered by user) and links to their full lists', async () => {
    const user = account(5);
    api.on('GET /admin/licenses', (request) => ({
      json: {
        data: [
          {
            license_id: 'L1',
            license_key: 'ABCDE-FGHJK-MNPQR-STVWX-YZ234',
            user_id: user.id,
            user_email: user.email,
            plan_id: 'p1',
            plan: { id: 'p1', code: 'pro', name: 'Pro', billing_interval: 'month' },
            subscription_id: null,
            status: 'active',
            expires_at: null,
            max_activations: 3,
            activations_used: 1,
            revoked_reason: null,
            revoked_at: null,
            created_at: '2025-01-01T00:00:00.000Z',
            updated_at: '2025-01-01T00:00:00.000Z',
            floating: false,
            organisation: null,
            seats: null,
            renews: false,
            paused_until: null,
            updates_until: null,
            trial: null,
            update_window_ended: false,
            usage_info: { features: [] },
          },
        ],
        total: request.query.get('userId') === user.id ? 2 : 0,
        page: 1,
        perPage: 5,
      },
    }));
    api.on('GET /payments/admin/payments', () => ({
      json: {
        data: [
          {
            id: 'pay-1',
            order_id: 'order_1',
            payment_id: 'pay_1',
            provider: 'sandbox',
            sandbox: true,
            status: 'paid',
            amount: 149900,
            refunded: 0,
            currency: 'INR',
            plan_id: 'p1',
            plan: { id: 'p1', code: 'pro', name: 'Pro' },
            license_id: 'L1',
            failure_reason: null,
            created_at: '2025-01-02T00:00:00.000Z',
            updated_at: '2025-01-02T00:00:00.000Z',
            paid_at: '2025-01-02T00:00:00.000Z',
            kind: 'purchase',
            dismissed_at: null,
            user_id: user.id,
            user_email: user.email,
          },
        ],
        total: 3,
        page: 1,
        perPage: 5,
      },
    }));
    await openUsers();
    await listed('user5@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Details of user5@example.com' }));
    const drawer = await screen.findByRole('dialog', { name: 'User details: User 5' });
    expect(await within(drawer).findByText('Pro')).toBeTruthy();
    expect(within(drawer).getByText('ABCDE-FGHJK-MNPQR-STVWX-YZ234')).toBeTruthy();
    expect(await within(drawer).findByText(/1,499/)).toBeTruthy();
    expect(api.calls('GET /admin/licenses')[0]?.query.get('userId')).toBe(user.id);
    expect(api.calls('GET /payments/admin/payments')[0]?.query.get('userId')).toBe(user.id);
    expect(within(drawer).getByRole('link', { name: 'Show in Licenses' }).getAttribute('href')).toBe(
      `/admin/licenses?userId=${user.id}`,
    );
    expect(within(drawer).getByRole('link', { name: 'Show in Payments' }).getAttribute('href')).toBe(
      `/admin/payments?userId=${user.id}`,
    );
    await waitFor(() => expect(within(drawer).getByText('Machines').nextSibling?.textContent).toBe('1'));
  });

  it('search is sent after typing stops, and "Clear filters" goes back to the plain list', async () => {
    const { router } = await openUsers('/admin/users?role=user');
    const search = await screen.findByLabelText('Search users');
    fireEvent.change(search, { target: { value: 'user3' } });
    await waitFor(() => expect(lastList().query.get('search')).toBe('user3'), { timeout: 5000 });
    expect(router.state.location.search).toBe('?search=user3&role=user');
    await userEvent.click(screen.getAllByRole('button', { name: 'Clear filters' })[0]!);
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() =>
      expect(Object.fromEntries(lastList().query)).toEqual({ page: '1', perPage: '10', sort: '-created_at' }),
    );
  });

  it('a failed list shows the server message with Retry', async () => {
    api.on('GET /admin/users', () => problem(500, 'Database unavailable'));
    await openUsers();
    expect(await screen.findByText('Database unavailable')).toBeTruthy();
    backend.install(api);
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await listed('user1@example.com')).toBeTruthy();
  });
});

describe('/admin/users: a user’s own data', { timeout: 90_000 }, () => {
  it('the drawer asks for the user’s data export, and erases the account with a reason (a refusal shown)', async () => {
    const user = account(4);
    api.on(`POST /admin/users/${user.id}/data-export`, () => ({
      status: 202,
      json: {
        id: 'E1',
        status: 'queued',
        progress: 0,
        requested_at: '2026-12-05T10:00:00.000Z',
        ready_at: null,
        expires_at: null,
        size_bytes: null,
      },
    }));
    api.on(`POST /admin/users/${user.id}/erase`, () =>
      problem(400, 'Give the reason for erasing the account (at least 3 characters)', 'validation_error'),
    );
    await openUsers();
    await listed(user.email);
    await userEvent.click(screen.getByRole('button', { name: `Details of ${user.email}` }));
    const drawer = await screen.findByRole('dialog', { name: 'User details: User 4' });
    await userEvent.click(await within(drawer).findByRole('button', { name: 'Export data' }));
    expect(
      await screen.findByText(`The link to the archive is mailed to ${user.email} when it is ready.`),
    ).toBeTruthy();
    expect(api.calls(`POST /admin/users/${user.id}/data-export`)).toHaveLength(1);

    await userEvent.click(within(drawer).getByRole('button', { name: 'Erase account…' }));
    const dialog = await screen.findByRole('dialog', { name: `Erase ${user.email}?` });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'x');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Erase account' }));
    expect(await within(dialog).findByText(/Give the reason for erasing/)).toBeTruthy();
    expect(JSON.parse(api.calls(`POST /admin/users/${user.id}/erase`)[0]!.body)).toEqual({ reason: 'x' });

    api.on(`POST /admin/users/${user.id}/erase`, () => ({ status: 204 }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'yz, asked by e-mail');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Erase account' }));
    expect(await screen.findByText('Account erased')).toBeTruthy();
    expect(JSON.parse(api.calls(`POST /admin/users/${user.id}/erase`).at(-1)!.body)).toEqual({
      reason: 'xyz, asked by e-mail',
    });
  });
});
