import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AdminSupportRequest } from '../../../src/shared/api/support';
import { FakeApi } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';

// The page is lazy and the session gate runs first: under a loaded machine that takes more than a second.
configure({ asyncUtilTimeout: 5000 });

const request = (id: string, extra: Partial<AdminSupportRequest> = {}): AdminSupportRequest => ({
  id,
  reference: `SR-${id.toUpperCase().padEnd(8, 'X')}`,
  user_id: 'u-1',
  email: 'customer@example.com',
  topic: 'Billing and payments',
  subject: `Subject ${id}`,
  message: `Message of ${id}\n\nSecond paragraph.`,
  diagnostics: null,
  state: 'open',
  handled_at: null,
  handled_by_email: null,
  created_at: '2025-01-01T10:00:00.000Z',
  ...extra,
});

let api: FakeApi;
let requests: AdminSupportRequest[];

beforeEach(async () => {
  api = await new FakeApi().start();
  requests = [
    request('first', { diagnostics: 'App: Desktop AI Assistant web portal 1.4.2\nUser id: u-1' }),
    request('second', {
      state: 'handled',
      handled_at: '2025-01-02T10:00:00.000Z',
      handled_by_email: 'ada@example.com',
    }),
  ];
  api.on('GET /admin/support-requests', (call) => {
    const state = call.query.get('state');
    const data = requests.filter((item) => !state || item.state === state);
    return { json: { data, total: data.length, page: 1, perPage: 10 } };
  });
  api.on('PUT /admin/support-requests/first/handled', (call) => {
    const { handled } = JSON.parse(call.body) as { handled: boolean };
    requests = requests.map((item) =>
      item.id === 'first'
        ? {
            ...item,
            state: handled ? 'handled' : 'open',
            handled_at: handled ? '2025-01-03T10:00:00.000Z' : null,
            handled_by_email: handled ? 'ada@example.com' : null,
          }
        : item,
    );
    return { json: requests.find((item) => item.id === 'first') };
  });
});
afterEach(async () => {
  await api.close();
});

describe('/admin/support-requests', () => {
  it('lists the requests, filters by state, shows one in full and marks it handled', async () => {
    const services = await servicesFor(api, 'admin');
    renderApp(services, '/admin/support-requests');
    await screen.findByRole('heading', { level: 1, name: 'Support requests' }, { timeout: 10_000 });
    const table = within(await screen.findByRole('table', { name: 'Support requests' }));
    expect(await table.findByText('Subject first')).toBeTruthy();
    expect(table.getByText('SR-FIRSTXXX')).toBeTruthy();
    expect(table.getByText('Handled')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('State'), { target: { value: 'open' } });
    await waitFor(() =>
      expect(api.calls('GET /admin/support-requests').at(-1)?.query.get('state')).toBe('open'),
    );
    await waitFor(() => expect(table.queryByText('Subject second')).toBeNull());

    fireEvent.click(table.getByRole('button', { name: 'Read SR-FIRSTXXX' }));
    const drawer = within(await screen.findByRole('dialog', { name: 'Support request SR-FIRSTXXX' }));
    expect(drawer.getByTestId('support-diagnostics').textContent).toContain('User id: u-1');
    expect(drawer.getByText(/Second paragraph/)).toBeTruthy();

    fireEvent.click(drawer.getByRole('button', { name: 'Mark handled: SR-FIRSTXXX' }));
    expect(await screen.findByText('Marked handled')).toBeTruthy();
    expect(JSON.parse(api.calls('PUT /admin/support-requests/first/handled')[0]?.body ?? '{}')).toEqual({
      handled: true,
    });
  });
});
