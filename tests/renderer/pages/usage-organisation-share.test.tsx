import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeApi } from '../support/fake-api';
import {
  chat,
  LICENSE_ID,
  license,
  openAsUser,
  SLOW,
  startLicenseApi,
} from './support-licenses/license-fixtures';

let api: FakeApi;
beforeEach(async () => {
  api = await startLicenseApi();
});
afterEach(async () => {
  await api.close();
});

const pooled = chat({ limit: 1000, used: 150, remaining: 850 });

describe('/usage on an organization’s license', () => {
  it('shows the member’s own use against their cap beside the organization’s', async () => {
    api.on('GET /licenses', () => ({ json: [license({ usage_info: { features: [pooled] } })] }));
    api.on(`GET /licenses/${LICENSE_ID}/usage`, () => ({
      json: {
        license_id: LICENSE_ID,
        usage_info: { features: [pooled] },
        currency: 'INR',
        overage: [],
        packs: [],
        history: [],
        member_usage: {
          user_id: 'me',
          email: null,
          full_name: null,
          role: null,
          features: [
            {
              feature_id: pooled.feature_id,
              key: pooled.key,
              name: pooled.name,
              unit: pooled.unit,
              period: 'month',
              period_start: pooled.period_start ?? '2026-12-01T00:00:00.000Z',
              used: 40,
              cap: 100,
              remaining: 60,
            },
          ],
        },
      },
    }));
    await openAsUser(api, '/usage');
    const share = within(
      await screen.findByRole('region', { name: 'Your share of the organization’s allowance' }, SLOW),
    );
    expect(share.getByText(/You: 40 of your cap 100 · Organization: 150 of 1,000/)).toBeTruthy();
  });
});
