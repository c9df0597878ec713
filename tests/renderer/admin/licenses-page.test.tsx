import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AdminActivation, AdminLicense } from '../../../src/shared/api/admin';
import { adminUser, adminUserDetail, paged } from '../support/api-answers';
import { FakeApi, problem, type RecordedRequest } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';

const USER_ID = '00000000-0000-4000-8000-000000000001';
const OTHER_ID = '00000000-0000-4000-8000-000000000002';

const plan = (id: string, name: string, extra: object = {}) => ({
  id,
  code: id,
  name,
  description: '',
  price_minor: 1000,
  currency: 'USD',
  billing_interval: 'month',
  max_activations: 3,
  seat_based: false,
  trial_days: 0,
  deactivations_per_30_days: 3,
  fingerprint_threshold: 3,
  floating: null,
  is_public: true,
  is_active: true,
  is_draft: false,
  sort_order: 0,
  update_months: null,
  renews_updates_of: null,
  features: [],
  archived_at: null,
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z',
  prices: [{ currency: 'USD', price_minor: 1000 }],
  ...extra,
});

const license = (index: number, extra: Partial<AdminLicense> = {}): AdminLicense => ({
  license_id: `L${index}`,
  license_key: `KEY${String(index).padStart(2, '0')}-AAAAA-BBBBB-CCCCC-DDDDD`,
  user_id: USER_ID,
  user_email: 'ada@example.com',
  plan_id: 'pro',
  plan: { id: 'pro', code: 'pro', name: 'Pro', billing_interval: 'month' },
  subscription_id: null,
  status: 'active',
  expires_at: '2099-01-31T23:59:59.999Z',
  renews: false,
  paused_until: null,
  updates_until: null,
  update_window_ended: false,
  max_activations: 3,
  activations_used: 1,
  revoked_reason: null,
  revoked_at: null,
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z',
  floating: false,
  organisation: null,
  trial: null,
  seats: null,
  usage_info: { features: [] },
  ...extra,
});

const activation = (id: string, extra: Partial<AdminActivation> = {}): AdminActivation => ({
  activation_id: id,
  license_id: 'L1',
  hardware_id: `hw-${id}-0123456789abcdef`,
  label: null,
  device_name: `Laptop ${id}`,
  platform: 'linux',
  app_version: '2.0.0',
  activated_at: '2025-01-02T00:00:00.000Z',
  last_seen_at: '2025-01-03T00:00:00.000Z',
  deactivated_at: null,
  deactivated_reason: null,
  components: null,
  component_changes: [],
  ...extra,
});

const hashOf = (digit: string) => digit.repeat(64);

/** A machine as the license's detail carries it: its component history is only in the machines list. */
const withoutHistory = ({
  component_changes: _history,
  components: _components,
  ...machine
}: AdminActivation) => machine;

/** An in-memory `/admin/licenses` with paging, the status filter and the writes the page makes. */
class LicensesBackend {
  licenses = Array.from({ length: 23 }, (_, index) => license(index + 1));
  activations = [
    activation('A1'),
    activation('A2', { deactivated_at: '2025-01-04T00:00:00.000Z', deactivated_reason: 'user' }),
  ];

  install(api: FakeApi) {
    api.on('GET /admin/licenses', (request) => {
      const page = Number(request.query.get('page') ?? 1);
      const perPage = Number(request.query.get('perPage') ?? 10);
      const status = request.query.get('status');
      const matching = this.licenses.filter((item) => !status || item.status === status);
      return {
        json: {
          data: matching.slice((page - 1) * perPage, page * perPage),
          total: matching.length,
          page,
          perPage,
        },
      };
    });
    api.on('POST /admin/licenses', (request) => {
      const body = JSON.parse(request.body) as { user_id: string; plan_id: string; max_activations?: number };
      const created = license(100, {
        license_key: 'NEWKY-AAAAA-BBBBB-CCCCC-DDDDD',
        user_id: body.user_id,
        user_email: 'grace@example.com',
        plan_id: body.plan_id,
        plan: { id: body.plan_id, code: body.plan_id, name: 'Team', billing_interval: 'year' },
        max_activations: body.max_activations ?? 5,
        activations_used: 0,
      });
      this.licenses.unshift(created);
      return { status: 201, json: created };
    });
    api.on('GET /plans', () => ({
      json: {
        data: [
          plan('pro', 'Pro'),
          plan('team', 'Team'),
          plan('old', 'Legacy', { archived_at: '2024-01-01T00:00:00.000Z' }),
        ],
        total: 3,
        page: 1,
        perPage: 100,
      },
    }));
    api.on('GET /admin/users', (request) => ({
      json: paged(
        (request.query.get('search') ?? '').startsWith('gra')
          ? [adminUser(OTHER_ID, { email: 'grace@example.com', full_name: 'Grace Hopper' })]
          : [],
        { perPage: 10 },
      ),
    }));
    api.on(`GET /admin/users/${USER_ID}`, () => ({
      json: adminUserDetail(USER_ID, { email: 'ada@example.com' }),
    }));
    api.on('GET /admin/licenses/L1', () => ({
      json: { ...this.find('L1'), activations: this.activations.map(withoutHistory) },
    }));
    api.on('GET /admin/licenses/L1/activations', () => ({ json: this.activations }));
    api.on('POST /admin/licenses/L1/activations/A1/deactivate', () => {
      this.activations = this.activations.map((item) =>
        item.activation_id === 'A1'
          ? { ...item, deactivated_at: new Date().toISOString(), deactivated_reason: 'admin' }
          : item,
      );
      return { json: this.update('L1', { activations_used: 0 }) };
    });
    api.on('POST /admin/licenses/L2/revoke', (request) => ({
      json: this.update('L2', { status: 'revoked', revoked_reason: request.query.get('reason') }),
    }));
    api.on('PUT /admin/licenses/L3', (request) => ({
      json: this.update('L3', JSON.parse(request.body) as object),
    }));
  }
  find(id: string) {
    return this.licenses.find((item) => item.license_id === id)!;
  }
  update(id: string, changes: object) {
    const updated = { ...this.find(id), ...changes };
    this.licenses = this.licenses.map((item) => (item.license_id === id ? updated : item));
    return updated;
  }
}

let api: FakeApi;
let backend: LicensesBackend;
beforeEach(async () => {
  api = await new FakeApi().start();
  backend = new LicensesBackend();
  backend.install(api);
});
afterEach(() => api.close());

async function openLicenses(path = '/admin/licenses') {
  const services = await servicesFor(api, 'admin');
  const view = renderApp(services, path);
  await screen.findByRole('heading', { level: 1, name: 'Licenses' }, { timeout: 30_000 });
  return view;
}

const table = () => screen.getByRole('table', { name: 'Licenses' });
const listed = async (text: string) =>
  within(await screen.findByRole('table', { name: 'Licenses' })).findByText(text, {}, { timeout: 10_000 });
const lastList = (): RecordedRequest => {
  const calls = api.calls('GET /admin/licenses');
  return calls[calls.length - 1]!;
};
const fill = (field: HTMLElement, value: string) => fireEvent.change(field, { target: { value } });
const keyOf = (index: number) => license(index).license_key;

describe('/admin/licenses', { timeout: 90_000 }, () => {
  it('a deep link ?userId=… filters by that user (shown by e-mail); URL state reaches the server', async () => {
    await openLicenses(
      `/admin/licenses?userId=${USER_ID}&status=active&planId=pro&sort=expires_at&page=2&perPage=25`,
    );
    await waitFor(() => expect(api.calls('GET /admin/licenses').length).toBeGreaterThan(0));
    expect(Object.fromEntries(lastList().query)).toEqual({
      page: '2',
      perPage: '25',
      sort: 'expires_at',
      status: 'active',
      planId: 'pro',
      userId: USER_ID,
    });
    await waitFor(() =>
      expect((screen.getByRole('combobox', { name: 'User' }) as HTMLInputElement).value).toBe(
        'ada@example.com',
      ),
    );
    await waitFor(() => expect((screen.getByLabelText('Plan') as HTMLSelectElement).value).toBe('pro'));
  });

  it('pages against the server and shows each license’s key, owner, plan, status, seats and expiry', async () => {
    const { router } = await openLicenses();
    const cell = await listed(keyOf(1));
    const row = within(cell.closest('tr')!);
    expect(row.getByText('ada@example.com')).toBeTruthy();
    expect(row.getByText('Pro')).toBeTruthy();
    expect(row.getByText('Active')).toBeTruthy();
    expect(row.getByText('1 / 3 machines')).toBeTruthy();
    expect(screen.getByText('Showing 1–10 of 23 licenses')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(await listed(keyOf(23))).toBeTruthy();
    expect(router.state.location.search).toBe('?page=3');
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'revoked');
    await waitFor(() =>
      expect(Object.fromEntries(lastList().query)).toMatchObject({ page: '1', status: 'revoked' }),
    );
    expect(await screen.findByText('No licenses match these filters')).toBeTruthy();
  });

  it('a Business license shows the seats its organization bought and holds, its machines apart', async () => {
    backend.update('L1', {
      organisation: { id: 'org-1', name: 'Acme Labs' },
      seats: { bought: 5, held: 3, machines_per_seat: 2 },
      max_activations: 10,
      activations_used: 4,
    });
    await openLicenses();
    const row = within((await listed(keyOf(1))).closest('tr')!);
    expect(row.getByText('3 of 5 seats held')).toBeTruthy();
    expect(row.getByText('4 / 10 machines')).toBeTruthy();
    const personal = within((await listed(keyOf(2))).closest('tr')!);
    expect(personal.getByText('1 / 3 machines')).toBeTruthy();
    expect(personal.queryByText(/seats? held/)).toBeNull();
  });

  it('Revoke requires a reason; the revoked license shows it, and the reason goes as query text', async () => {
    await openLicenses();
    await listed(keyOf(2));
    await userEvent.click(screen.getByRole('button', { name: `Revoke ${keyOf(2)}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke license?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke license' }));
    expect(
      await within(dialog).findByText('Enter the reason: the owner sees it on their license'),
    ).toBeTruthy();
    expect(
      within(dialog)
        .getByLabelText(/^Reason/)
        .getAttribute('aria-invalid'),
    ).toBe('true');
    expect(api.calls('POST /admin/licenses/L2/revoke')).toHaveLength(0);

    fill(within(dialog).getByLabelText(/^Reason/), '  Chargeback:\ncard reported stolen  ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke license' }));
    await waitFor(() => expect(api.calls('POST /admin/licenses/L2/revoke')).toHaveLength(1));
    expect(api.calls('POST /admin/licenses/L2/revoke')[0]!.query.get('reason')).toBe(
      'Chargeback: card reported stolen',
    );
    expect(await screen.findByText('License revoked', {}, { timeout: 5000 })).toBeTruthy();
    const row = within((await listed(keyOf(2))).closest('tr')!);
    await waitFor(() => expect(row.getByText('Revoked')).toBeTruthy());
    expect(row.getByText('Reason: Chargeback: card reported stolen')).toBeTruthy();
    expect((row.getByRole('button', { name: `Revoke ${keyOf(2)}` }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it('Free trial: the row shows its source and end; extend sends the days, end is refused in the server’s words', async () => {
    const trial = {
      ends_at: '2025-02-15T00:00:00.000Z',
      days_left: 1,
      started_at: '2025-02-01T00:00:00.000Z',
    };
    backend.update('L4', { trial: { ...trial, source: 'account' } });
    api.on('POST /admin/licenses/L4/trial', (request) => {
      const body = JSON.parse(request.body) as { action: string };
      if (body.action === 'end')
        return problem(409, 'This free trial has already ended.', 'trial_already_ended');
      return {
        json: backend.update('L4', {
          trial: { ...trial, ends_at: '2025-02-22T00:00:00.000Z', days_left: 16, source: 'account' },
        }),
      };
    });
    await openLicenses();
    const row = within((await listed(keyOf(4))).closest('tr')!);
    expect(row.getByText(/^Account trial · ends/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: `Free trial of ${keyOf(5)}` })).toBeNull();
    await userEvent.click(row.getByRole('button', { name: `Free trial of ${keyOf(4)}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Free trial' });
    // Its source in words, and one day as "1 day".
    expect(
      within(dialog).getByText(/started from the account on .+, ending on .+ \(1 day left\)\.$/),
    ).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Extend trial' }));
    await waitFor(() => expect(api.calls('POST /admin/licenses/L4/trial')).toHaveLength(1));
    expect(JSON.parse(api.calls('POST /admin/licenses/L4/trial')[0]!.body)).toEqual({
      action: 'extend',
      days: 7,
    });
    expect(await screen.findByText('Trial extended', {}, { timeout: 5000 })).toBeTruthy();

    await userEvent.click(row.getByRole('button', { name: `Free trial of ${keyOf(4)}` }));
    const again = await screen.findByRole('dialog', { name: 'Free trial' });
    await userEvent.selectOptions(within(again).getByLabelText('Change'), 'end');
    await userEvent.click(within(again).getByRole('button', { name: 'End trial' }));
    expect(await within(again).findByText('This free trial has already ended.')).toBeTruthy();
  });

  it('Revoke: the server’s refusal shows in the dialog', async () => {
    api.on('POST /admin/licenses/L2/revoke', () =>
      problem(409, 'This license is already revoked', 'license_already_revoked'),
    );
    await openLicenses();
    await listed(keyOf(2));
    await userEvent.click(screen.getByRole('button', { name: `Revoke ${keyOf(2)}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke license?' });
    fill(within(dialog).getByLabelText(/^Reason/), 'fraud');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke license' }));
    expect(await within(dialog).findByText('This license is already revoked')).toBeTruthy();
  });

  it('New license: a user found by search and a plan; empty seats and expiry use the plan’s defaults', async () => {
    await openLicenses();
    await listed(keyOf(1));
    await userEvent.click(screen.getByRole('button', { name: 'New license' }));
    const dialog = await screen.findByRole('dialog', { name: 'New license' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create license' }));
    expect(await within(dialog).findByText('Choose the user')).toBeTruthy();
    expect(within(dialog).getByText('Choose a plan', { selector: ':not(option)' })).toBeTruthy();
    expect(api.calls('POST /admin/licenses')).toHaveLength(0);

    // The archived plan is not offered for new licenses.
    const planSelect = within(dialog).getByLabelText(/^Plan/) as HTMLSelectElement;
    expect([...planSelect.options].map((option) => option.textContent)).toEqual([
      'Choose a plan',
      'Pro',
      'Team',
    ]);

    const picker = within(dialog).getByRole('combobox', { name: /^User/ });
    await userEvent.type(picker, 'gra');
    // jsdom never lays the dropdown out (it stays display: none), so the option is found among hidden elements.
    const option = await screen.findByRole(
      'option',
      { name: 'grace@example.com (Grace Hopper)', hidden: true },
      { timeout: 5000 },
    );
    fireEvent.click(option);
    await waitFor(() => expect((picker as HTMLInputElement).value).toBe('grace@example.com (Grace Hopper)'));
    expect(api.calls('GET /admin/users').some((call) => call.query.get('search') === 'gra')).toBe(true);
    await userEvent.selectOptions(planSelect, 'team');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create license' }));

    await waitFor(() => expect(api.calls('POST /admin/licenses')).toHaveLength(1));
    expect(JSON.parse(api.calls('POST /admin/licenses')[0]!.body)).toEqual({
      user_id: OTHER_ID,
      plan_id: 'team',
    });
    expect(await screen.findByText('License issued', {}, { timeout: 5000 })).toBeTruthy();
    expect(await listed('NEWKY-AAAAA-BBBBB-CCCCC-DDDDD')).toBeTruthy();
  });

  it('Edit: seats below the machines in use are refused before sending; a valid change sends only it', async () => {
    backend.update('L3', { activations_used: 2 });
    await openLicenses();
    await listed(keyOf(3));
    await userEvent.click(screen.getByRole('button', { name: `Edit ${keyOf(3)}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit license' });
    const seats = within(dialog).getByLabelText(/^Machines/);
    await userEvent.clear(seats);
    await userEvent.type(seats, '1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await within(dialog).findByText(/At least 2: that many machines use it now/)).toBeTruthy();
    expect(api.calls('PUT /admin/licenses/L3')).toHaveLength(0);

    await userEvent.clear(seats);
    await userEvent.type(seats, '10');
    await userEvent.selectOptions(within(dialog).getByLabelText(/^Status/), 'suspended');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(api.calls('PUT /admin/licenses/L3')).toHaveLength(1));
    expect(JSON.parse(api.calls('PUT /admin/licenses/L3')[0]!.body)).toEqual({
      status: 'suspended',
      max_activations: 10,
    });
    const row = within((await listed(keyOf(3))).closest('tr')!);
    await waitFor(() => expect(row.getByText('Suspended')).toBeTruthy());
    expect(row.getByText('2 / 10 machines')).toBeTruthy();
  });

  it('Edit: the server’s refusal shows in the form', async () => {
    api.on('PUT /admin/licenses/L3', () =>
      problem(
        409,
        'This license is used on 3 machines: deactivate some before lowering its seats',
        'seats_in_use',
      ),
    );
    await openLicenses();
    await listed(keyOf(3));
    await userEvent.click(screen.getByRole('button', { name: `Edit ${keyOf(3)}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit license' });
    await userEvent.selectOptions(within(dialog).getByLabelText(/^Expires/), 'never');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(
      await within(dialog).findByText(
        'This license is used on 3 machines: deactivate some before lowering its seats',
      ),
    ).toBeTruthy();
    expect(JSON.parse(api.calls('PUT /admin/licenses/L3')[0]!.body)).toEqual({ expires_at: null });
  });

  it('Machines: the license’s activations, and Deactivate (confirmed) frees a seat', async () => {
    await openLicenses();
    await listed(keyOf(1));
    await userEvent.click(screen.getByRole('button', { name: `Machines of ${keyOf(1)}` }));
    const drawer = await screen.findByRole('dialog', { name: 'Machines' });
    expect(await within(drawer).findByText('Laptop A1', {}, { timeout: 5000 })).toBeTruthy();
    expect(within(drawer).getByText('Laptop A2')).toBeTruthy();
    // Only the active machine can be deactivated.
    expect(within(drawer).queryByRole('button', { name: 'Deactivate Laptop A2' })).toBeNull();
    await userEvent.click(within(drawer).getByRole('button', { name: 'Deactivate Laptop A1' }));
    const confirm = await screen.findByRole('dialog', { name: 'Deactivate Laptop A1?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Deactivate machine' }));
    await waitFor(() =>
      expect(api.calls('POST /admin/licenses/L1/activations/A1/deactivate')).toHaveLength(1),
    );
    expect(await screen.findByText('Machine deactivated', {}, { timeout: 5000 })).toBeTruthy();
    await waitFor(() =>
      expect(within(drawer).queryByRole('button', { name: 'Deactivate Laptop A1' })).toBeNull(),
    );
    expect(within(drawer).getByText('0 of 3 seats in use', { exact: false })).toBeTruthy();
    await waitFor(() => expect(within(table()).getAllByText('0 / 3 machines').length).toBeGreaterThan(0));
  });

  it('Machines: a machine’s fingerprint components and their changes, folded behind a button the keyboard opens', async () => {
    backend.activations = [
      activation('A1', {
        components: {
          machine_id: hashOf('a'),
          cpu: hashOf('b'),
          disk: hashOf('c'),
          board: hashOf('d'),
          os_install: hashOf('e'),
        },
        component_changes: [
          { changed: ['disk', 'board'], matched: 3, changed_at: '2025-03-02T10:00:00.000Z' },
          { changed: ['disk'], matched: 4, changed_at: '2025-02-01T10:00:00.000Z' },
        ],
      }),
      activation('A2', { deactivated_at: '2025-01-04T00:00:00.000Z', deactivated_reason: 'user' }),
    ];
    await openLicenses();
    await listed(keyOf(1));
    await userEvent.click(screen.getByRole('button', { name: `Machines of ${keyOf(1)}` }));
    const drawer = await screen.findByRole('dialog', { name: 'Machines' });
    const toggle = await within(drawer).findByRole(
      'button',
      { name: 'Show the fingerprint of Laptop A1' },
      { timeout: 5000 },
    );
    expect(toggle.textContent).toBe('Fingerprint · 2 changes');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    // A machine whose app sends none says so instead.
    expect(within(drawer).getByText('No fingerprint components: its app sends none.')).toBeTruthy();

    toggle.focus();
    await userEvent.keyboard('{Enter}');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(toggle.getAttribute('aria-label')).toBe('Hide the fingerprint of Laptop A1');
    const region = document.getElementById(toggle.getAttribute('aria-controls') ?? '');
    expect(region).not.toBeNull();
    const disk = within(region as HTMLElement).getByTitle(hashOf('c'));
    expect(disk.textContent).toBe(`${'c'.repeat(16)}…`);
    // The fold opens with a transition: the list is reachable once it has run, however busy the machine.
    const history = await within(region as HTMLElement).findByRole(
      'list',
      { name: 'Component changes of Laptop A1' },
      { timeout: 5000 },
    );
    expect(
      within(history)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      expect.stringMatching(/: Disk and board changed · 3 of 5 matched$/),
      expect.stringMatching(/: Disk changed · 4 of 5 matched$/),
    ]);
    await userEvent.keyboard(' ');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });

  it('Machines: the deactivation count, and Reset count… requires a reason and sends it', async () => {
    api.on('GET /admin/licenses/L1', () => ({
      json: {
        ...backend.find('L1'),
        activations: backend.activations.map(withoutHistory),
        machine_changes: { limit: 3, used: 3, window_days: 30, next_possible_at: '2026-12-31T10:00:00.000Z' },
      },
    }));
    api.on('POST /admin/licenses/L1/deactivations/reset', () => ({
      json: {
        ...backend.find('L1'),
        machine_changes: { limit: 3, used: 0, window_days: 30, next_possible_at: null },
      },
    }));
    await openLicenses();
    await listed(keyOf(1));
    await userEvent.click(screen.getByRole('button', { name: `Machines of ${keyOf(1)}` }));
    const drawer = await screen.findByRole('dialog', { name: 'Machines' });
    expect(
      (await within(drawer).findByTestId('admin-machine-changes', {}, { timeout: 5000 })).textContent,
    ).toMatch(/^3 of 3 deactivations used in 30 days · next possible /);
    await userEvent.click(within(drawer).getByRole('button', { name: 'Reset count…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset the deactivation count?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reset count' }));
    expect(await within(dialog).findByText('Enter the reason: it is kept in the security log')).toBeTruthy();
    expect(api.calls('POST /admin/licenses/L1/deactivations/reset')).toHaveLength(0);
    await userEvent.type(within(dialog).getByLabelText(/^Reason/), '  Stolen laptop,   reported  ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reset count' }));
    await waitFor(() => expect(api.calls('POST /admin/licenses/L1/deactivations/reset')).toHaveLength(1));
    expect(JSON.parse(api.calls('POST /admin/licenses/L1/deactivations/reset')[0]?.body ?? '{}')).toEqual({
      reason: 'Stolen laptop, reported',
    });
    expect(await screen.findByText('Deactivation count reset', {}, { timeout: 5000 })).toBeTruthy();
  });
});
