import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FeatureUsage, OverageOutlook, UsagePack } from '../../../src/shared/api/licenses';
import { utc } from '../../../src/shared/dates';
import { type FakeApi, problem } from '../support/fake-api';
import {
  chat,
  LICENSE_ID,
  license,
  OTHER_LICENSE_ID,
  openAsUser,
  SLOW,
  startLicenseApi,
  voice,
} from './support-licenses/license-fixtures';

let api: FakeApi;
beforeEach(async () => {
  api = await startLicenseApi();
});
afterEach(async () => {
  await api.close();
});

const today = utc(Date.now()).startOf('day');
const day = (daysAgo: number) => today.subtract(daysAgo, 'day').format('YYYY-MM-DD');
const monthStart = today.startOf('month');
/** The subscription's next renewal, when ended periods' overage is charged. */
const RENEWAL = monthStart.add(1, 'month').add(9, 'day').toISOString();
/** This month's period as the server writes it. */
const thisMonth = {
  period_start: monthStart.toISOString(),
  period_end: monthStart.add(1, 'month').toISOString(),
};
/** Days of this month's period so far, today included: what the page asks the chart for. */
const daysSoFar = today.diff(monthStart, 'day') + 1;

/** AI requests billed past 1 000 a month at $2.50 per 10: 1 030 used, so 3 blocks, $7.50. */
const requests = (extra: Partial<FeatureUsage> = {}): FeatureUsage =>
  chat({
    feature_id: 'f-requests',
    key: 'ai_requests',
    name: 'AI requests',
    unit: 'requests',
    limit: 1000,
    overage: { policy: 'bill', price_minor: 250, per_units: 10, cap: null },
    used: 1030,
    remaining: 0,
    over_allowance: 30,
    available: true,
    message: '1030 of 1000 requests used this month',
    ...thisMonth,
    ...extra,
  });

function usageAnswer(
  features: FeatureUsage[],
  history: { date: string; amount: number }[] = [],
  currency = 'USD',
  { overage = [], packs = [] }: { overage?: OverageOutlook[]; packs?: UsagePack[] } = {},
) {
  return {
    json: {
      license_id: LICENSE_ID,
      usage_info: { features },
      currency,
      history: history.map((item) => ({ ...item, feature_id: 'f-requests', key: 'ai_requests' })),
      overage,
      packs,
    },
  };
}

const card = async (name: string) =>
  within(await screen.findByRole('article', { name: `${name} usage` }, SLOW));

describe('/usage', () => {
  it('shows used of the allowance, what is left, the reset, the billed overage and the days of the period', async () => {
    api.on('GET /licenses', () => ({ json: [license({ usage_info: { features: [requests(), voice()] } })] }));
    api.on(`GET /licenses/${LICENSE_ID}/usage`, () =>
      usageAnswer(
        [requests(), voice()],
        [
          { date: day(0), amount: 30 },
          { date: day(0) === monthStart.format('YYYY-MM-DD') ? day(0) : day(1), amount: 1000 },
        ],
        'USD',
        {
          overage: [
            {
              feature_id: 'f-requests',
              projected_minor: 750,
              owed_units: 40,
              owed_minor: 1000,
              billable: true,
              charged_on: RENEWAL,
            },
          ],
        },
      ),
    );
    await openAsUser(api, '/usage');
    expect(await screen.findByRole('heading', { level: 1, name: 'Usage' }, SLOW)).toBeTruthy();
    // The signed-in navigation leads here.
    expect(screen.getAllByRole('link', { name: 'Usage' }).length).toBeGreaterThan(0);

    const requestsCard = await card('AI requests');
    const text = (await screen.findByRole('article', { name: 'AI requests usage' })).textContent ?? '';
    expect(text).toContain('1,030 of 1,000 requests this month');
    expect(text).toContain(
      `0 requests left · resets on ${new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(monthStart.add(1, 'month').toDate())}`,
    );
    expect(
      requestsCard.getByText('Past the allowance: 30 requests, billed at $2.50 per 10 requests.'),
    ).toBeTruthy();
    // ceil(30 / 10) × $2.50.
    expect(requestsCard.getByTestId('projected-overage').textContent).toBe('$7.50');
    // What ended periods owe, and when the renewal charges it.
    expect(requestsCard.getByTestId('overage-charge').textContent).toBe(
      `Owed from ended periods: $10 (40 requests), charged with the renewal on ${new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(RENEWAL))}.`,
    );
    // The on/off feature is not metered: no card.
    expect(screen.queryByRole('article', { name: 'Voice commands usage' })).toBeNull();

    // The chart asks for this period's days, and its text summary agrees with the use.
    expect(api.calls(`GET /licenses/${LICENSE_ID}/usage`).at(-1)?.query.get('days')).toBe(String(daysSoFar));
    expect(requestsCard.getByTestId('usage-chart-summary').textContent).toMatch(
      /^AI requests: 1,030 requests in total/,
    );

    // The numbers per day, from the keyboard.
    const user = userEvent.setup();
    const toggle = requestsCard.getByRole('button', { name: 'Show daily numbers' });
    toggle.focus();
    await user.keyboard('{Enter}');
    const table = within(requestsCard.getByRole('table', { name: 'AI requests per day this period' }));
    const total = table.getAllByRole('row').at(-1) as HTMLElement;
    expect(within(total).getByText('1,030')).toBeTruthy();
    expect(
      requestsCard.getByRole('button', { name: 'Hide daily numbers' }).getAttribute('aria-expanded'),
    ).toBe('true');

    // The plan sells no credit pack: the button says so and leads nowhere.
    const buy = screen.getByRole('button', { name: 'Buy credits' });
    expect(buy.hasAttribute('disabled')).toBe(true);
    expect(buy.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(buy.getAttribute('aria-describedby') ?? '')?.textContent).toMatch(
      /This plan sells no credit packs/,
    );
  });

  it('writes the overage in the plan’s currency, and a capped feature’s limit past the allowance', async () => {
    const capped = requests({
      overage: { policy: 'cap', price_minor: 2, per_units: 1, cap: 500 },
      used: 400,
      remaining: 600,
      over_allowance: 0,
    });
    api.on('GET /licenses', () => ({ json: [license({ usage_info: { features: [capped] } })] }));
    api.on(`GET /licenses/${LICENSE_ID}/usage`, () =>
      usageAnswer([capped], [{ date: day(0), amount: 400 }], 'INR'),
    );
    await openAsUser(api, '/usage');
    const requestsCard = await card('AI requests');
    expect(
      requestsCard.getByText(
        'Past the allowance, use is billed at ₹0.02 each. Up to 500 requests past it; then use stops.',
      ),
    ).toBeTruthy();
    expect(requestsCard.getByTestId('projected-overage').textContent).toBe('₹0');
  });

  it('a feature that stops at its allowance shows no price, and the server’s words once used up', async () => {
    const used = chat({
      used: 100,
      remaining: 0,
      available: false,
      message: 'AI chat limit reached for this month',
      ...thisMonth,
    });
    api.on('GET /licenses', () => ({ json: [license({ usage_info: { features: [used] } })] }));
    api.on(`GET /licenses/${LICENSE_ID}/usage`, () => usageAnswer([used]));
    await openAsUser(api, '/usage');
    const chatCard = await card('AI chat');
    expect(chatCard.getByText('Use stops at the allowance until it resets.')).toBeTruthy();
    expect(chatCard.getByText('AI chat limit reached for this month')).toBeTruthy();
    expect(chatCard.queryByTestId('projected-overage')).toBeNull();
  });

  it('before any use this period, says so instead of drawing empty bars', async () => {
    const fresh = requests({ used: 0, remaining: 1000, over_allowance: 0 });
    api.on('GET /licenses', () => ({ json: [license({ usage_info: { features: [fresh] } })] }));
    api.on(`GET /licenses/${LICENSE_ID}/usage`, () => usageAnswer([fresh]));
    await openAsUser(api, '/usage');
    const requestsCard = await card('AI requests');
    expect(requestsCard.getByText(/No usage yet in this period/)).toBeTruthy();
    // No numbers to list either.
    expect(requestsCard.queryByRole('button', { name: 'Show daily numbers' })).toBeNull();
    expect(
      requestsCard.getByText('Past the allowance, use is billed at $2.50 per 10 requests.'),
    ).toBeTruthy();
    expect(requestsCard.getByTestId('projected-overage').textContent).toBe('$0');
  });

  it('without metered features, says what would show here', async () => {
    api.on('GET /licenses', () => ({ json: [license({ usage_info: { features: [voice()] } })] }));
    await openAsUser(api, '/usage');
    expect(await screen.findByRole('heading', { name: 'Nothing is metered yet' }, SLOW)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'See plans' }).getAttribute('href')).toBe('/purchase');
    expect(api.calls(`GET /licenses/${LICENSE_ID}/usage`)).toHaveLength(0);
  });

  it('with several metered licenses, a picker chooses the one shown', async () => {
    const other = license({
      license_id: OTHER_LICENSE_ID,
      license_key: 'ABCDE-Y952T-EV4Z7-D207Y-QRST9',
      plan: { id: 'plan-team', code: 'team', name: 'Team', billing_interval: 'month' },
      created_at: '2025-09-01T00:00:00.000Z',
      usage_info: { features: [requests({ used: 12, remaining: 988, over_allowance: 0 })] },
    });
    api.on('GET /licenses', () => ({ json: [license({ usage_info: { features: [requests()] } }), other] }));
    api.on(`GET /licenses/${LICENSE_ID}/usage`, () => usageAnswer([requests()]));
    api.on(`GET /licenses/${OTHER_LICENSE_ID}/usage`, () => ({
      json: {
        ...usageAnswer([requests({ used: 12, remaining: 988, over_allowance: 0 })]).json,
        license_id: OTHER_LICENSE_ID,
      },
    }));
    const { router } = await openAsUser(api, '/usage');
    const picker = (await screen.findByRole('combobox', { name: 'License' }, SLOW)) as HTMLSelectElement;
    expect(picker.value).toBe(LICENSE_ID);
    expect(await screen.findByRole('heading', { level: 2, name: 'Pro license · …WY4K5' }, SLOW)).toBeTruthy();

    await userEvent.setup().selectOptions(picker, OTHER_LICENSE_ID);
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Team license · …QRST9' }, SLOW),
    ).toBeTruthy();
    await waitFor(
      () =>
        expect(screen.getByRole('article', { name: 'AI requests usage' }).textContent ?? '').toContain(
          '12 of 1,000',
        ),
      SLOW,
    );
    expect(router.state.location.search).toBe(`?license=${OTHER_LICENSE_ID}`);
  });

  it('shows loading, then a failed read with Try again', async () => {
    api.on('GET /licenses', () => ({ json: [license({ usage_info: { features: [requests()] } })] }));
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    api.on(`GET /licenses/${LICENSE_ID}/usage`, async () => {
      calls += 1;
      if (calls > 1) return usageAnswer([requests()]);
      await held;
      return problem(503, 'The usage service is unavailable', 'unavailable');
    });
    await openAsUser(api, '/usage');
    // The licenses are read; the usage read is still out.
    expect(await screen.findByText('Loading usage', undefined, SLOW)).toBeTruthy();
    release();
    expect(await screen.findByText('Could not load usage', undefined, SLOW)).toBeTruthy();
    expect(screen.getByText('The usage service is unavailable')).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'AI requests usage' }, SLOW)).toBeTruthy();
  });

  it('a failed read of the licenses says so, with Try again', async () => {
    api.on('GET /licenses', () => problem(500, 'Failed to fetch licenses', 'internal'));
    await openAsUser(api, '/usage');
    expect(await screen.findByText('Could not load your licenses', undefined, SLOW)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
  it('opens "Buy credits" for a feature selling a pack: packs and their price, and lists the packs on its card', async () => {
    const withPack = requests({ pack: { units: 500, price_minor: 1_000 }, packs_left: 300 });
    api.on('GET /licenses', () => ({ json: [license({ usage_info: { features: [withPack] } })] }));
    api.on(`GET /licenses/${LICENSE_ID}/usage`, () =>
      usageAnswer([withPack], [], 'USD', {
        packs: [
          {
            id: 'pack-1',
            feature_id: 'f-requests',
            units: 500,
            used: 200,
            left: 300,
            source: 'purchase',
            created_at: monthStart.toISOString(),
            expires_at: monthStart.add(12, 'month').toISOString(),
          },
        ],
      }),
    );
    await openAsUser(api, '/usage');
    const requestsCard = await card('AI requests');
    expect(requestsCard.getByRole('list', { name: 'Credit packs' }).textContent).toMatch(
      /300 of 500 requests left, valid until/,
    );
    const buy = screen.getByRole('button', { name: 'Buy credits' });
    await waitFor(() => expect(buy.hasAttribute('disabled')).toBe(false));
    await userEvent.click(buy);
    const dialog = within(await screen.findByRole('dialog', { name: 'Buy credits' }));
    const packs = dialog.getByRole('textbox', { name: 'Packs' });
    await userEvent.clear(packs);
    await userEvent.type(packs, '2');
    await waitFor(() =>
      expect(dialog.getByTestId('packs-price').textContent).toMatch(/1,000 requests for \$20 /),
    );
    expect(dialog.getByRole('button', { name: 'Continue to payment' })).toBeTruthy();
  });
});
