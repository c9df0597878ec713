import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AdminUsageRow } from '../../../src/renderer/src/features/admin/usage/admin-usage-endpoints';
import { FakeApi, type RecordedRequest } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';

// The page is lazy and the session gate runs first: under a loaded machine that takes more than a second.
configure({ asyncUtilTimeout: 5000 });

const row = (extra: Partial<AdminUsageRow> = {}): AdminUsageRow => ({
  license_id: 'lic-1',
  user_id: 'user-1',
  email: 'heavy@example.com',
  organisation_id: null,
  organisation_name: null,
  plan_name: 'Pro',
  feature_id: 'f-chat',
  feature_key: 'ai_chat',
  feature_name: 'AI chat',
  unit: 'messages',
  period: 'month',
  used: 1210,
  allowance: 1000,
  over_allowance: 210,
  overage_policy: 'bill',
  overage_accrued_minor: 5250,
  currency: 'INR',
  ...extra,
});

let api: FakeApi;
let lists: RecordedRequest[];

beforeEach(async () => {
  api = await new FakeApi().start();
  lists = [];
  api.on('GET /admin/usage', (request) => {
    lists.push(request);
    return {
      json: {
        data: [
          row(),
          row({
            license_id: 'lic-2',
            email: 'owner@acme.test',
            organisation_id: 'org-1',
            organisation_name: 'Acme',
            used: 40,
            over_allowance: 0,
            overage_accrued_minor: 0,
          }),
        ],
        total: 2,
        page: 1,
        perPage: 10,
        period_start: '2026-12-01T00:00:00.000Z',
        period_end: '2027-01-01T00:00:00.000Z',
        overage_billed: [{ currency: 'INR', amount_minor: 125_000 }],
      },
    };
  });
});
afterEach(() => api.close());

const lastList = () => lists[lists.length - 1] as RecordedRequest;

describe('/admin/usage', { timeout: 60_000 }, () => {
  it('lists use per customer and feature, heaviest first, with the overage accrued; the period and sort go to the server', async () => {
    const services = await servicesFor(api, 'admin');
    renderApp(services, '/admin/usage');
    await screen.findByRole('heading', { level: 1, name: 'Usage' }, { timeout: 10_000 });
    // The admin navigation leads here.
    expect(screen.getAllByRole('link', { name: 'Usage' }).length).toBeGreaterThan(0);
    const table = within(await screen.findByRole('table', { name: 'Usage' }));
    expect(await table.findByText('heavy@example.com')).toBeTruthy();
    expect(table.getByText('Acme')).toBeTruthy();
    expect(table.getByText('1,210 messages')).toBeTruthy();
    expect(table.getByText('₹52.50')).toBeTruthy();
    expect(screen.getByText('Overage billed this month: ₹1,250')).toBeTruthy();
    expect(lastList().query.get('period')).toBeNull();

    const user = userEvent.setup();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Period' }), 'previous');
    await waitFor(() => expect(lastList().query.get('period')).toBe('previous'));
  });
});
