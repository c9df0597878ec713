import { act, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SecurityEvent } from '../../../src/shared/api/admin';
import { SECURITY_EVENT_TYPES } from '../../../src/renderer/src/features/admin/security/security-event-types';
import { adminUser, adminUserDetail, paged } from '../support/api-answers';
import { FakeApi, problem, type RecordedRequest } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';

// The page is lazy and the session gate runs first: under a loaded machine that takes more than a second.
configure({ asyncUtilTimeout: 5000 });

const USER_ID = '7f1c2a4e-1b2c-4d3e-8f90-123456789abc';

const makeEvent = (index: number, extra: Partial<SecurityEvent> = {}): SecurityEvent => ({
  id: `event-${index}`,
  type: 'login_failed',
  severity: 'warning',
  user_id: USER_ID,
  user_email: 'ada@example.com',
  actor_id: null,
  actor_email: null,
  ip: `10.0.0.${index}`,
  user_agent: 'Mozilla/5.0',
  details: { reason: 'bad_password', attempts: index },
  created_at: new Date(Date.UTC(2025, 0, 1, 12, 0, index)).toISOString(),
  ...extra,
});

let api: FakeApi;
let lists: RecordedRequest[];

/** The security log of the fake server: 1 000 events, one page at a time, as the query asks. */
function serveEvents(total = 1000) {
  lists = [];
  api.on('GET /admin/security-events', (request) => {
    lists.push(request);
    const page = Number(request.query.get('page') ?? 1);
    const perPage = Number(request.query.get('perPage') ?? 10);
    const start = (page - 1) * perPage;
    const data = Array.from({ length: Math.max(0, Math.min(perPage, total - start)) }, (_, offset) =>
      makeEvent(start + offset + 1),
    );
    return { json: { data, total, page, perPage } };
  });
}

beforeEach(async () => {
  api = await new FakeApi().start();
  api.on('GET /admin/users', () => ({
    json: paged([adminUser(USER_ID, { email: 'ada@example.com' })], { perPage: 10 }),
  }));
  api.on(`GET /admin/users/${USER_ID}`, () => ({
    json: adminUserDetail(USER_ID, { email: 'ada@example.com' }),
  }));
  serveEvents();
});
afterEach(() => api.close());

async function open(path: string) {
  const services = await servicesFor(api, 'admin');
  const view = renderApp(services, path);
  await screen.findByRole('heading', { level: 1, name: 'Security events' }, { timeout: 10_000 });
  return view;
}

const lastList = () => lists[lists.length - 1] as RecordedRequest;
const table = () => screen.getByRole('table', { name: 'Security events' });
/** A cell of the events table (the first page loads after the lazy page and the session gate). */
const findCell = async (text: string) =>
  within(await screen.findByRole('table', { name: 'Security events' }, { timeout: 5000 })).findByText(
    text,
    {},
    { timeout: 5000 },
  );

describe('/admin/security', () => {
  it('knows every event type the server records (the filter offers exactly those)', async () => {
    // Read at run time: the renderer's type check covers no server code.
    const serverModule = '../../../src/server/platform/security-log/security-events';
    const { securityEventTypes } = (await import(/* @vite-ignore */ serverModule)) as {
      securityEventTypes: Record<string, string>;
    };
    expect([...SECURITY_EVENT_TYPES].sort()).toEqual(Object.values(securityEventTypes).sort());
  });

  it('sends the URL’s page, size, search, sort and filters to the server', async () => {
    await open(
      `/admin/security?page=3&perPage=25&search=ada&sort=severity&type=login_failed,account_locked&severity=critical&userId=${USER_ID}&from=2025-01-01&to=2025-01-31`,
    );
    await waitFor(() => expect(lists.length).toBeGreaterThan(0));
    const query = lastList().query;
    expect(Object.fromEntries(query)).toEqual({
      page: '3',
      perPage: '25',
      search: 'ada',
      sort: 'severity',
      type: 'login_failed,account_locked',
      severity: 'critical',
      userId: USER_ID,
      from: '2025-01-01',
      to: '2025-01-31',
    });
    expect(await findCell('10.0.0.51')).toBeTruthy();
    expect(screen.getByText('Showing 51–75 of 1,000 events')).toBeTruthy();
    // The user filter shows the account by e-mail, not by id.
    await waitFor(() =>
      expect((screen.getByRole('combobox', { name: 'User' }) as HTMLInputElement).value).toBe(
        'ada@example.com',
      ),
    );
  });

  it('a type the server does not know is left out of the request', async () => {
    await open('/admin/security?type=login_failed,made_up');
    await waitFor(() => expect(lists.length).toBeGreaterThan(0));
    expect(lastList().query.get('type')).toBe('login_failed');
  });

  it('filters by severity and type: the URL keeps them and the list goes back to page 1', async () => {
    const { router } = await open('/admin/security?page=4');
    await findCell('10.0.0.31');

    fireEvent.change(screen.getByLabelText('Severity'), { target: { value: 'critical' } });
    await waitFor(() => expect(lastList().query.get('severity')).toBe('critical'));
    expect(lastList().query.get('page')).toBe('1');
    expect(router.state.location.search).toBe('?severity=critical');

    await userEvent.click(screen.getByRole('combobox', { name: 'Event type' }));
    // jsdom lays nothing out, so floating-ui counts the field as off screen and hides the dropdown.
    await userEvent.click(await screen.findByRole('option', { name: 'Account locked', hidden: true }));
    await waitFor(() => expect(lastList().query.get('type')).toBe('account_locked'));
    expect(new URLSearchParams(router.state.location.search).get('type')).toBe('account_locked');
    expect(new URLSearchParams(router.state.location.search).get('severity')).toBe('critical');
  });

  it('two quick changes, before the list shows the first, both stick', async () => {
    const { router } = await open('/admin/security');
    await findCell('10.0.0.1');
    // One act: React shows neither change before the second handler runs (as with a fast click).
    act(() => {
      fireEvent.change(screen.getByLabelText('Severity'), { target: { value: 'critical' } });
      fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-01-05' } });
    });
    await waitFor(() =>
      expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
        severity: 'critical',
        from: '2025-01-05',
      }),
    );
    await waitFor(() => expect(lastList().query.get('severity')).toBe('critical'));
    expect(lastList().query.get('from')).toBe('2025-01-05');
  });

  it('pages: Next page, Page N and Rows per page reach the server', async () => {
    const { router } = await open('/admin/security');
    await findCell('10.0.0.1');
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(lastList().query.get('page')).toBe('2'));
    expect(await findCell('10.0.0.11')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(lastList().query.get('page')).toBe('3'));
    fireEvent.change(screen.getByLabelText('Rows per page'), { target: { value: '50' } });
    await waitFor(() => expect(lastList().query.get('perPage')).toBe('50'));
    expect(lastList().query.get('page')).toBe('1');
    expect(router.state.location.search).toBe('?perPage=50');
    expect(await screen.findByText('Showing 1–50 of 1,000 events')).toBeTruthy();
  });

  it('a reversed date range is marked and never sent', async () => {
    await open('/admin/security?to=2025-01-10');
    await waitFor(() => expect(lists.length).toBeGreaterThan(0));
    const before = lists.length;
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-02-01' } });
    expect(await screen.findByText('From must be on or before To')).toBeTruthy();
    // A change the page does send, made after it: its request is the barrier. Had the reversed
    // range been sent, its request would have come first, or this one would carry it.
    fireEvent.change(screen.getByLabelText('Severity'), { target: { value: 'critical' } });
    await waitFor(() => expect(lastList().query.get('severity')).toBe('critical'));
    expect(lists.slice(before).map((request) => request.query.get('from'))).not.toContain('2025-02-01');
    expect(lastList().query.get('to')).toBe('2025-01-10');
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-01-02' } });
    await waitFor(() => expect(lastList().query.get('from')).toBe('2025-01-02'));
    expect(lastList().query.get('to')).toBe('2025-01-10');
  });

  it('shows an event’s every field and its metadata as pretty JSON; the URL names the event', async () => {
    const { router } = await open('/admin/security');
    await findCell('10.0.0.2');
    const row = within(table()).getByText('10.0.0.2').closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: /^View Sign-in failed/ }));
    const drawer = await screen.findByRole('dialog', { name: 'Sign-in failed' });
    expect(new URLSearchParams(router.state.location.search).get('event')).toBe('event-2');
    expect(within(drawer).getByText('login_failed')).toBeTruthy();
    expect(within(drawer).getByText('Mozilla/5.0')).toBeTruthy();
    expect(within(drawer).getByTestId('event-metadata').textContent).toBe(
      JSON.stringify({ reason: 'bad_password', attempts: 2 }, null, 2),
    );
  });

  it('a shared link to one event loads it even when it is not on the page', async () => {
    api.on('GET /admin/security-events/event-x', () => ({
      json: makeEvent(99, { id: 'event-x', type: 'license_revoked', severity: 'critical', details: null }),
    }));
    await open('/admin/security?event=event-x');
    const drawer = await screen.findByRole('dialog', { name: 'License revoked' });
    expect(within(drawer).getByText('This event carries no metadata.')).toBeTruthy();
  });

  it('shows the server’s message when the list is refused, and Retry asks again', async () => {
    api.on('GET /admin/security-events', () => problem(400, 'from must not be after to'));
    await open('/admin/security');
    expect(await screen.findByText('from must not be after to')).toBeTruthy();
    serveEvents(3);
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await findCell('10.0.0.3')).toBeTruthy();
  });

  it('an empty result says so and offers to clear the filters', async () => {
    serveEvents(0);
    const { router } = await open('/admin/security?severity=critical');
    expect(await screen.findByText('No events match these filters')).toBeTruthy();
    fireEvent.click(screen.getAllByRole('button', { name: 'Clear filters' })[0] as HTMLElement);
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });
});
