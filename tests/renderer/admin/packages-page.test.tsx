import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Feature } from '../../../src/shared/api/features';
import type { Plan, PlanFeature } from '../../../src/shared/api/plans';
import { FakeApi, problem, type RecordedRequest } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';
import { plan as sharedPlan } from '../support/api-answers';

// The page is lazy and the session gate runs first: under a loaded machine that takes more than a second.
configure({ asyncUtilTimeout: 5000 });

const NOW = '2025-01-01T00:00:00.000Z';

const features: Feature[] = [
  {
    feature_id: 'f-chat',
    key: 'ai_chat',
    name: 'AI chat',
    description: '',
    kind: 'metered',
    period: 'month',
    unit: 'messages',
    created_at: NOW,
    updated_at: NOW,
  },
  {
    feature_id: 'f-voice',
    key: 'voice_commands',
    name: 'Voice commands',
    description: '',
    kind: 'boolean',
    period: null,
    unit: null,
    created_at: NOW,
    updated_at: NOW,
  },
];

const planFeature = (feature: Feature, limit: number | null): PlanFeature => ({
  feature_id: feature.feature_id,
  key: feature.key,
  name: feature.name,
  kind: feature.kind,
  period: feature.period,
  unit: feature.unit,
  limit,
  overage: { policy: 'stop', price_minor: null, per_units: 1, cap: null },
  pack: null,
});

const makePlan = (id: string, extra: Partial<Plan> = {}): Plan =>
  sharedPlan(id, {
    price_minor: 99_900,
    billing_interval: 'month',
    max_activations: 3,
    created_at: NOW,
    updated_at: NOW,
    ...extra,
  });

let api: FakeApi;
let plans: Plan[];
let lists: RecordedRequest[];

/** The payment settings as the server answers them: payments taken in `currency`. */
const servePaymentCurrency = (currency: string) =>
  api.on('GET /payments/config', () => ({
    json: { provider: 'sandbox', key_id: 'sandbox', sandbox: true, currency, currencies: [currency] },
  }));

/** A plan's prices as the server answers them: its own first, then the others sent. */
const pricesOf = (plan: Partial<Plan>, others: Plan['prices'] = []): Plan['prices'] => [
  { currency: plan.currency ?? 'INR', price_minor: plan.price_minor ?? 0 },
  ...others,
];

/** The plans API of the server over `plans`: list, detail, create and update (features replaced). */
function servePlans() {
  lists = [];
  api.on('GET /plans', (request) => {
    lists.push(request);
    const page = Number(request.query.get('page') ?? 1);
    const perPage = Number(request.query.get('perPage') ?? 10);
    return {
      json: { data: plans.slice((page - 1) * perPage, page * perPage), total: plans.length, page, perPage },
    };
  });
  api.on('GET /admin/features', () => ({
    json: { data: features, total: features.length, page: 1, perPage: 100 },
  }));
  servePaymentCurrency('INR');
  api.on('POST /plans', (request) => {
    const { other_prices: others, ...body } = JSON.parse(request.body) as Partial<Plan> & {
      other_prices?: Plan['prices'];
    };
    // As the server does: a new package is a draft until it is published.
    const created = makePlan('plan-new', {
      ...body,
      prices: pricesOf(body, others),
      features: [],
      is_draft: true,
    });
    plans = [...plans, created];
    api.on('GET /plans/plan-new', () => ({ json: plans.find((plan) => plan.id === 'plan-new') }));
    return { status: 201, json: created };
  });
  for (const plan of plans) {
    api.on(`POST /plans/${plan.id}/publish`, () => {
      const current = plans.find((item) => item.id === plan.id) as Plan;
      if (current.features.length === 0)
        return problem(409, 'Choose at least one feature for this plan first', 'plan_without_features');
      const published = { ...current, is_draft: false };
      plans = plans.map((item) => (item.id === plan.id ? published : item));
      return { json: published };
    });
    api.on(`GET /plans/${plan.id}`, () => ({ json: plans.find((item) => item.id === plan.id) }));
    api.on(`PUT /plans/${plan.id}`, (request) => {
      const { other_prices: others, ...body } = JSON.parse(request.body) as Partial<Plan> & {
        features?: { feature_id: string; limit: number | null }[];
        other_prices?: Plan['prices'];
      };
      const current = plans.find((item) => item.id === plan.id) as Plan;
      const updated: Plan = {
        ...current,
        ...body,
        prices: pricesOf({ ...current, ...body }, others ?? current.prices.slice(1)),
        features: body.features
          ? body.features.map((entry) =>
              planFeature(
                features.find((item) => item.feature_id === entry.feature_id) as Feature,
                entry.limit,
              ),
            )
          : current.features,
      };
      plans = plans.map((item) => (item.id === plan.id ? updated : item));
      return { json: updated };
    });
  }
}

beforeEach(async () => {
  api = await new FakeApi().start();
  plans = [
    makePlan('plan-base', {
      code: 'base',
      name: 'Base',
      price_minor: 0,
      billing_interval: 'free',
      max_activations: 1,
    }),
    makePlan('plan-pro', {
      code: 'pro-monthly',
      name: 'Pro',
      features: [planFeature(features[0] as Feature, 5000)],
      sort_order: 1,
    }),
  ];
  servePlans();
});
afterEach(() => api.close());

async function open(path: string) {
  const services = await servicesFor(api, 'admin');
  const view = renderApp(services, path);
  await screen.findByRole('heading', { level: 1, name: 'Packages' }, { timeout: 10_000 });
  return view;
}

const lastList = () => lists[lists.length - 1] as RecordedRequest;
const findCell = async (text: string) =>
  within(await screen.findByRole('table', { name: 'Packages' })).findByText(text);
const lastBody = (route: string) =>
  JSON.parse(api.calls(route).at(-1)?.body ?? 'null') as Record<string, unknown>;

describe('/admin/packages', () => {
  it('sends the URL’s page, size, search, sort and status to the server', async () => {
    await open('/admin/packages?page=3&perPage=25&search=pro&sort=-price_minor&status=archived');
    await waitFor(() => expect(lists.length).toBeGreaterThan(0));
    expect(Object.fromEntries(lastList().query)).toEqual({
      page: '3',
      perPage: '25',
      search: 'pro',
      sort: '-price_minor',
      status: 'archived',
    });
  });

  it('edits a package’s features in place: tick, change a limit, Save features, a toast, the list follows', async () => {
    const { router } = await open('/admin/packages');
    await findCell('Pro');
    fireEvent.click(screen.getByRole('button', { name: 'Manage Pro' }));
    const drawer = await screen.findByRole('dialog', { name: 'Package Pro' });
    expect(new URLSearchParams(router.state.location.search).get('package')).toBe('plan-pro');

    const chat = await within(drawer).findByRole('checkbox', { name: 'Include AI chat' });
    expect((chat as HTMLInputElement).checked).toBe(true);
    const voice = within(drawer).getByRole('checkbox', { name: 'Include Voice commands' });
    expect((voice as HTMLInputElement).checked).toBe(false);
    const save = within(drawer).getByRole('button', { name: 'Save features' });
    expect((save as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(voice);
    const limit = within(drawer).getByRole('textbox', { name: 'Limit for AI chat' });
    await userEvent.clear(limit);
    await userEvent.type(limit, '250');
    expect(within(drawer).getByText(/2 unsaved changes/)).toBeTruthy();
    fireEvent.click(save);

    await waitFor(() => expect(api.calls('PUT /plans/plan-pro')).toHaveLength(1));
    expect(lastBody('PUT /plans/plan-pro')).toEqual({
      features: [
        { feature_id: 'f-chat', limit: 250 },
        { feature_id: 'f-voice', limit: null },
      ],
    });
    expect(await screen.findByText('Features of Pro saved')).toBeTruthy();
    await waitFor(() => expect((save as HTMLButtonElement).disabled).toBe(true));
    // The list reloads: Pro now has two features.
    const row = (await findCell('Pro')).closest('tr') as HTMLElement;
    await waitFor(() => expect(within(row).getByText('2')).toBeTruthy());
  });

  it('an empty limit means unlimited; unticking removes the feature', async () => {
    await open('/admin/packages?package=plan-pro');
    const drawer = await screen.findByRole('dialog', { name: 'Package Pro' });
    const limit = await within(drawer).findByRole('textbox', { name: 'Limit for AI chat' });
    await userEvent.clear(limit);
    fireEvent.click(within(drawer).getByRole('button', { name: 'Save features' }));
    await waitFor(() => expect(api.calls('PUT /plans/plan-pro')).toHaveLength(1));
    expect(lastBody('PUT /plans/plan-pro')).toEqual({ features: [{ feature_id: 'f-chat', limit: null }] });

    fireEvent.click(await within(drawer).findByRole('checkbox', { name: 'Include AI chat' }));
    fireEvent.click(within(drawer).getByRole('button', { name: 'Save features' }));
    await waitFor(() => expect(api.calls('PUT /plans/plan-pro')).toHaveLength(2));
    expect(lastBody('PUT /plans/plan-pro')).toEqual({ features: [] });
  });

  it('a draft says it is not on sale, and is published once it has a feature', async () => {
    plans = [...plans, makePlan('plan-draft', { code: 'studio', name: 'Studio', is_draft: true })];
    servePlans();
    await open('/admin/packages');
    const row = (await findCell('Studio')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Draft')).toBeTruthy();
    expect(within(row).queryByText('Active')).toBeNull();

    fireEvent.click(within(row).getByRole('button', { name: 'Manage Studio' }));
    const drawer = await screen.findByRole('dialog', { name: 'Package Studio' });
    expect(await within(drawer).findByText('Draft: not on sale yet')).toBeTruthy();
    const publish = within(drawer).getByRole('button', { name: 'Publish package' }) as HTMLButtonElement;
    expect(publish.disabled).toBe(true);
    expect(within(drawer).getByText(/Choose at least one feature first/)).toBeTruthy();

    fireEvent.click(await within(drawer).findByRole('checkbox', { name: 'Include Voice commands' }));
    fireEvent.click(within(drawer).getByRole('button', { name: 'Save features' }));
    await waitFor(() => expect(api.calls('PUT /plans/plan-draft')).toHaveLength(1));
    await waitFor(() => expect(publish.disabled).toBe(false));
    fireEvent.click(publish);
    await waitFor(() => expect(api.calls('POST /plans/plan-draft/publish')).toHaveLength(1));
    expect(await screen.findByText('Studio is on the purchase page now.')).toBeTruthy();
    await waitFor(() => expect(within(drawer).queryByText('Draft: not on sale yet')).toBeNull());
  });

  it('the draft filter goes to the server', async () => {
    await open('/admin/packages?status=draft');
    await waitFor(() => expect(lists.length).toBeGreaterThan(0));
    expect(lastList().query.get('status')).toBe('draft');
  });

  it('shows the server’s refusal of the features', async () => {
    api.on('PUT /plans/plan-pro', () => problem(400, 'Unknown feature: f-voice', 'unknown_feature'));
    await open('/admin/packages?package=plan-pro');
    const drawer = await screen.findByRole('dialog', { name: 'Package Pro' });
    fireEvent.click(await within(drawer).findByRole('checkbox', { name: 'Include Voice commands' }));
    fireEvent.click(within(drawer).getByRole('button', { name: 'Save features' }));
    expect(await within(drawer).findByText('Unknown feature: f-voice')).toBeTruthy();
  });

  it('creates a package after checking it with the request schema', async () => {
    const { router } = await open('/admin/packages');
    await findCell('Pro');
    fireEvent.click(screen.getAllByRole('button', { name: 'New package' })[0] as HTMLElement);
    const dialog = await screen.findByRole('dialog', { name: 'New package' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Studio');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Code/ }), 'Studio Plan');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Price/ }), '0');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create package' }));
    expect(
      await within(dialog).findByText('Code may contain lower-case letters, digits, "-" and "_"'),
    ).toBeTruthy();
    expect(within(dialog).getByText('A free plan has price 0 and a paid plan a price above 0')).toBeTruthy();
    expect(api.calls('POST /plans')).toHaveLength(0);

    const code = within(dialog).getByRole('textbox', { name: /^Code/ });
    await userEvent.clear(code);
    await userEvent.type(code, 'studio');
    const price = within(dialog).getByRole('textbox', { name: /^Price/ });
    await userEvent.clear(price);
    await userEvent.type(price, '1499.5');
    fireEvent.change(within(dialog).getByLabelText('Billing'), { target: { value: 'year' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create package' }));

    await waitFor(() => expect(api.calls('POST /plans')).toHaveLength(1));
    expect(lastBody('POST /plans')).toEqual({
      name: 'Studio',
      code: 'studio',
      description: '',
      price_minor: 149_950,
      currency: 'INR',
      // Payments are taken in rupees only here: no other prices.
      other_prices: [],
      billing_interval: 'year',
      max_activations: 1,
      trial_days: 0,
      deactivations_per_30_days: 3,
      fingerprint_threshold: 3,
      sort_order: 0,
      is_public: true,
      is_active: true,
      // Not perpetual: no months of updates, and no update renewal.
      update_months: null,
      renews_updates_of: null,
      // Node-locked: no floating seats.
      floating: null,
    });
    expect(await screen.findByText('Package created')).toBeTruthy();
    // Next step: its features, in the package's drawer.
    expect(await screen.findByRole('dialog', { name: 'Package Studio' })).toBeTruthy();
    expect(new URLSearchParams(router.state.location.search).get('package')).toBe('plan-new');
  });

  it('a new package is priced in the currency payments are taken in, the only one offered', async () => {
    servePaymentCurrency('USD');
    await open('/admin/packages');
    await findCell('Pro');
    fireEvent.click(screen.getAllByRole('button', { name: 'New package' })[0] as HTMLElement);
    const dialog = await screen.findByRole('dialog', { name: 'New package' });
    const currency = within(dialog).getByRole('combobox', { name: /^Currency/ }) as HTMLSelectElement;
    await waitFor(() => expect(currency.value).toBe('USD'));
    expect([...currency.options].map((option) => option.value)).toEqual(['USD']);
  });

  it('a package priced in another currency shows it as it is, and why it cannot be bought', async () => {
    servePaymentCurrency('USD');
    await open('/admin/packages?package=plan-pro');
    const drawer = await screen.findByRole('dialog', { name: 'Package Pro' });
    fireEvent.click(within(drawer).getByRole('tab', { name: 'Details' }));
    const own = (await within(drawer).findByRole('combobox', { name: /^Currency/ })) as HTMLSelectElement;
    expect(own.value).toBe('INR');
    await waitFor(() =>
      expect([...own.options].map((option) => option.textContent)).toEqual(['USD', 'INR (cannot be bought)']),
    );
    expect(
      within(drawer).getByText('Payments are taken in USD: this package cannot be bought in INR.'),
    ).toBeTruthy();
  });

  it('prices a package in the other currencies payments are taken in: an empty one is not sold, only the list that changed is sent', async () => {
    api.on('GET /payments/config', () => ({
      json: {
        provider: 'sandbox',
        key_id: 'sandbox',
        sandbox: true,
        currency: 'INR',
        currencies: ['INR', 'USD', 'EUR'],
      },
    }));
    await open('/admin/packages?package=plan-pro');
    const drawer = await screen.findByRole('dialog', { name: 'Package Pro' });
    fireEvent.click(within(drawer).getByRole('tab', { name: 'Details' }));
    const euros = await within(drawer).findByRole('textbox', { name: 'Price in EUR' });
    // Its own currency is the plan's price, not another one.
    expect(within(drawer).queryByRole('textbox', { name: 'Price in INR' })).toBeNull();
    expect(within(drawer).getByRole('textbox', { name: 'Price in USD' })).toBeTruthy();
    await userEvent.type(euros, '11.5');
    fireEvent.click(within(drawer).getByRole('button', { name: 'Save details' }));
    await waitFor(() => expect(api.calls('PUT /plans/plan-pro')).toHaveLength(1));
    expect(lastBody('PUT /plans/plan-pro')).toEqual({
      other_prices: [{ currency: 'EUR', price_minor: 1150 }],
    });
  });

  it('edits details (only what changed is sent) and shows a taken code on its field', async () => {
    await open('/admin/packages?package=plan-pro');
    const drawer = await screen.findByRole('dialog', { name: 'Package Pro' });
    fireEvent.click(within(drawer).getByRole('tab', { name: 'Details' }));
    const name = await within(drawer).findByRole('textbox', { name: /^Name/ });
    await userEvent.clear(name);
    await userEvent.type(name, 'Pro monthly');
    fireEvent.click(within(drawer).getByRole('button', { name: 'Save details' }));
    await waitFor(() => expect(api.calls('PUT /plans/plan-pro')).toHaveLength(1));
    expect(lastBody('PUT /plans/plan-pro')).toEqual({ name: 'Pro monthly' });
    expect(await screen.findByText('Package saved')).toBeTruthy();
    expect(await screen.findByRole('dialog', { name: 'Package Pro monthly' })).toBeTruthy();

    api.on('PUT /plans/plan-pro', () =>
      problem(409, 'A plan with the code "base" already exists', 'plan_code_taken'),
    );
    const code = within(drawer).getByRole('textbox', { name: /^Code/ });
    await userEvent.clear(code);
    await userEvent.type(code, 'base');
    fireEvent.click(within(drawer).getByRole('button', { name: 'Save details' }));
    // On the Code field, and in the form's alert.
    await waitFor(() =>
      expect(within(drawer).getAllByText('A plan with the code "base" already exists')).toHaveLength(2),
    );
    expect(
      (within(drawer).getByRole('textbox', { name: /^Code/ }) as HTMLInputElement).getAttribute(
        'aria-invalid',
      ),
    ).toBe('true');
  });

  it('makes the organizations’ per-seat package floating with a switch (the pool is the seats bought)', async () => {
    plans = [
      ...plans,
      makePlan('plan-business', {
        code: 'business-monthly',
        name: 'Business',
        seat_based: true,
        sort_order: 2,
      }),
    ];
    servePlans();
    await open('/admin/packages?package=plan-business');
    const drawer = await screen.findByRole('dialog', { name: 'Package Business' });
    fireEvent.click(within(drawer).getByRole('tab', { name: 'Details' }));
    const floating = await within(drawer).findByRole('switch', { name: /^Floating seats/ });
    // No count to type: an organization's pool is the seats it bought.
    expect(within(drawer).queryByRole('textbox', { name: /^Floating seats/ })).toBeNull();
    const lease = within(drawer).getByRole('textbox', { name: /^Floating lease/ });
    expect(lease.hasAttribute('disabled')).toBe(true);
    fireEvent.click(floating);
    await waitFor(() => expect(lease.hasAttribute('disabled')).toBe(false));
    await userEvent.clear(lease);
    await userEvent.type(lease, '30');
    fireEvent.click(within(drawer).getByRole('button', { name: 'Save details' }));
    await waitFor(() => expect(api.calls('PUT /plans/plan-business')).toHaveLength(1));
    expect(lastBody('PUT /plans/plan-business')).toEqual({
      floating: { seats: 1, lease_minutes: 30, max_borrow_days: 7 },
    });
  });

  it('sets the free trial’s days in the details: only that change is sent', async () => {
    await open('/admin/packages?package=plan-pro');
    const drawer = await screen.findByRole('dialog', { name: 'Package Pro' });
    fireEvent.click(within(drawer).getByRole('tab', { name: 'Details' }));
    const trial = await within(drawer).findByRole('textbox', { name: /^Free trial \(days\)/ });
    await userEvent.clear(trial);
    await userEvent.type(trial, '14');
    fireEvent.click(within(drawer).getByRole('button', { name: 'Save details' }));
    await waitFor(() => expect(api.calls('PUT /plans/plan-pro')).toHaveLength(1));
    expect(lastBody('PUT /plans/plan-pro')).toEqual({ trial_days: 14 });
  });

  it('makes a package the update renewal of a perpetual one, picked from the perpetual packages only', async () => {
    plans = [
      ...plans,
      makePlan('plan-studio', {
        name: 'Studio',
        billing_interval: 'lifetime',
        update_months: 12,
        sort_order: 2,
      }),
      makePlan('plan-old', {
        name: 'Old perpetual',
        billing_interval: 'lifetime',
        update_months: 12,
        archived_at: NOW,
      }),
      makePlan('plan-renew', { name: 'Studio updates', billing_interval: 'lifetime', sort_order: 3 }),
    ];
    servePlans();
    await open('/admin/packages?package=plan-renew');
    const drawer = await screen.findByRole('dialog', { name: 'Package Studio updates' });
    fireEvent.click(within(drawer).getByRole('tab', { name: 'Details' }));
    const picker = (await within(drawer).findByRole('combobox', {
      name: /^Renews updates of/,
    })) as HTMLSelectElement;
    await waitFor(() =>
      expect([...picker.options].map((option) => option.textContent)).toEqual([
        'None: not an update renewal',
        'Studio',
      ]),
    );
    fireEvent.change(picker, { target: { value: 'plan-studio' } });
    expect(within(drawer).getByRole('textbox', { name: /^Months of updates added/ })).toBeTruthy();
    // A renewal says how many months it adds: the shared rule, on the field.
    fireEvent.click(within(drawer).getByRole('button', { name: 'Save details' }));
    expect(
      await within(drawer).findByText('An update renewal says how many months of updates it adds'),
    ).toBeTruthy();
    expect(api.calls('PUT /plans/plan-renew')).toHaveLength(0);
    await userEvent.type(within(drawer).getByRole('textbox', { name: /^Months of updates added/ }), '12');
    fireEvent.click(within(drawer).getByRole('button', { name: 'Save details' }));
    await waitFor(() => expect(api.calls('PUT /plans/plan-renew')).toHaveLength(1));
    expect(lastBody('PUT /plans/plan-renew')).toEqual({
      update_months: 12,
      renews_updates_of: 'plan-studio',
    });
  });

  it('delete asks first and says when the package was archived instead', async () => {
    api.on('DELETE /plans/plan-pro', () => {
      plans = plans.map((plan) =>
        plan.id === 'plan-pro' ? { ...plan, archived_at: NOW, is_active: false, is_public: false } : plan,
      );
      return {
        json: {
          id: 'plan-pro',
          outcome: 'archived',
          message:
            'Plan Pro has licenses, so it was archived: it is no longer offered and its licenses keep working',
        },
      };
    });
    await open('/admin/packages?package=plan-pro');
    const drawer = await screen.findByRole('dialog', { name: 'Package Pro' });
    fireEvent.click(within(drawer).getByRole('tab', { name: 'Details' }));
    fireEvent.click(await within(drawer).findByRole('button', { name: 'Delete package' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete package Pro?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Package archived')).toBeTruthy();
    expect(
      screen.getByText(
        'Plan Pro has licenses, so it was archived: it is no longer offered and its licenses keep working',
      ),
    ).toBeTruthy();
    expect(await within(drawer).findByText('Archived')).toBeTruthy();
  });
});
