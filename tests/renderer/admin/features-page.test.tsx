import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Feature } from '../../../src/shared/api/features';
import { FakeApi, problem, type RecordedRequest } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';

// The page is lazy and the session gate runs first: under a loaded machine that takes more than a second.
configure({ asyncUtilTimeout: 5000 });

const feature = (id: string, extra: Partial<Feature> = {}): Feature => ({
  feature_id: id,
  key: id.replace(/-/g, '_'),
  name: id,
  description: '',
  kind: 'boolean',
  period: null,
  unit: null,
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z',
  ...extra,
});

let api: FakeApi;
let catalogue: Feature[];
let lists: RecordedRequest[];

/** A features API over `catalogue`: paged list, stats, create, update and delete (refused when in use). */
function serveCatalogue() {
  lists = [];
  api.on('GET /admin/features', (request) => {
    lists.push(request);
    const page = Number(request.query.get('page') ?? 1);
    const perPage = Number(request.query.get('perPage') ?? 10);
    return {
      json: {
        data: catalogue.slice((page - 1) * perPage, page * perPage),
        total: catalogue.length,
        page,
        perPage,
      },
    };
  });
  api.on('GET /admin/features/stats', () => ({
    json: {
      total: catalogue.length,
      boolean: catalogue.filter((item) => item.kind === 'boolean').length,
      metered: catalogue.filter((item) => item.kind === 'metered').length,
      by_feature: catalogue.map((item) => ({
        feature_id: item.feature_id,
        key: item.key,
        name: item.name,
        plans: item.key === 'ai_chat' ? 3 : 0,
        plan_names: item.key === 'ai_chat' ? ['Base', 'Pro', 'Team'] : [],
        usage_this_month: item.key === 'ai_chat' ? 1234 : 0,
      })),
    },
  }));
  api.on('POST /admin/features', (request) => {
    const body = JSON.parse(request.body) as Partial<Feature>;
    if (catalogue.some((item) => item.key === body.key))
      return problem(409, `A feature with the key "${body.key}" already exists`, 'feature_key_taken');
    const created = feature('new-id', { ...body, feature_id: 'new-id' });
    catalogue = [created, ...catalogue];
    return { status: 201, json: created };
  });
}

const aiChat = feature('f-chat', {
  key: 'ai_chat',
  name: 'AI chat',
  kind: 'metered',
  period: 'month',
  unit: 'messages',
});

beforeEach(async () => {
  api = await new FakeApi().start();
  catalogue = [aiChat, feature('f-voice', { key: 'voice_commands', name: 'Voice commands' })];
  serveCatalogue();
});
afterEach(() => api.close());

async function open(path: string) {
  const services = await servicesFor(api, 'admin');
  const view = renderApp(services, path);
  await screen.findByRole('heading', { level: 1, name: 'Features' }, { timeout: 10_000 });
  return view;
}

const lastList = () => lists[lists.length - 1] as RecordedRequest;
const findCell = async (text: string) =>
  within(await screen.findByRole('table', { name: 'Features' })).findByText(text);

describe('/admin/features', () => {
  it('sends the URL’s page, size, search, sort and kind to the server', async () => {
    await open('/admin/features?page=2&perPage=50&search=chat&sort=-created_at&kind=metered');
    await waitFor(() => expect(lists.length).toBeGreaterThan(0));
    expect(Object.fromEntries(lastList().query)).toEqual({
      page: '2',
      perPage: '50',
      search: 'chat',
      sort: '-created_at',
      kind: 'metered',
    });
  });

  it('lists the features with their packages and this month’s use from the stats', async () => {
    await open('/admin/features');
    const row = (await findCell('AI chat')).closest('tr') as HTMLElement;
    expect(within(row).getByText('ai_chat')).toBeTruthy();
    expect(within(row).getByText('Metered')).toBeTruthy();
    expect(within(row).getByText('messages per month')).toBeTruthy();
    expect(await within(row).findByText('3')).toBeTruthy();
    expect(within(row).getByText('1,234')).toBeTruthy();
    const stats = screen.getByRole('region', { name: 'Metered features' });
    expect(within(stats).getByText('1')).toBeTruthy();
  });

  it('filters by kind from the toolbar and keeps it in the URL', async () => {
    const { router } = await open('/admin/features');
    await findCell('AI chat');
    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'boolean' } });
    await waitFor(() => expect(lastList().query.get('kind')).toBe('boolean'));
    expect(router.state.location.search).toBe('?kind=boolean');
  });

  it('refuses a bad form without sending it', async () => {
    await open('/admin/features');
    await findCell('AI chat');
    fireEvent.click(screen.getAllByRole('button', { name: 'New feature' })[0] as HTMLElement);
    const dialog = await screen.findByRole('dialog', { name: 'New feature' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Team sync');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Key/ }), 'Team Sync');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create feature' }));
    expect(
      await within(dialog).findByText(
        'Key may contain lower-case letters, digits and underscores, starting with a letter',
      ),
    ).toBeTruthy();
    expect(api.calls('POST /admin/features')).toHaveLength(0);
  });

  it('creates a metered feature: the request follows the schema, a toast, the list shows it', async () => {
    await open('/admin/features');
    await findCell('AI chat');
    fireEvent.click(screen.getAllByRole('button', { name: 'New feature' })[0] as HTMLElement);
    const dialog = await screen.findByRole('dialog', { name: 'New feature' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Image generation');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Key/ }), 'image_generation');
    fireEvent.click(within(dialog).getByRole('radio', { name: /^Metered/ }));
    fireEvent.change(within(dialog).getByLabelText('Usage period'), { target: { value: 'day' } });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Unit/ }), 'images');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create feature' }));

    await waitFor(() => expect(api.calls('POST /admin/features')).toHaveLength(1));
    expect(JSON.parse(api.calls('POST /admin/features')[0]?.body ?? '')).toEqual({
      key: 'image_generation',
      name: 'Image generation',
      description: '',
      kind: 'metered',
      period: 'day',
      unit: 'images',
    });
    expect(await screen.findByText('Feature created')).toBeTruthy();
    expect(await findCell('Image generation')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New feature' })).toBeNull());
  });

  it('shows the server’s refusal of a duplicate key in the form', async () => {
    await open('/admin/features');
    await findCell('AI chat');
    fireEvent.click(screen.getAllByRole('button', { name: 'New feature' })[0] as HTMLElement);
    const dialog = await screen.findByRole('dialog', { name: 'New feature' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Chat again');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Key/ }), 'ai_chat');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create feature' }));
    expect(await within(dialog).findByText('A feature with the key "ai_chat" already exists')).toBeTruthy();
  });

  it('edits a feature: only the changed fields are sent and the row updates', async () => {
    api.on('PUT /admin/features/f-chat', (request) => {
      const changes = JSON.parse(request.body) as Partial<Feature>;
      catalogue = catalogue.map((item) => (item.feature_id === 'f-chat' ? { ...item, ...changes } : item));
      return { json: catalogue.find((item) => item.feature_id === 'f-chat') };
    });
    await open('/admin/features');
    await findCell('AI chat');
    fireEvent.click(screen.getByRole('button', { name: 'Edit AI chat' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit feature AI chat' });
    const name = within(dialog).getByRole('textbox', { name: /^Name/ });
    await userEvent.clear(name);
    await userEvent.type(name, 'Assistant chat');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(api.calls('PUT /admin/features/f-chat')).toHaveLength(1));
    expect(JSON.parse(api.calls('PUT /admin/features/f-chat')[0]?.body ?? '')).toEqual({
      name: 'Assistant chat',
    });
    expect(await findCell('Assistant chat')).toBeTruthy();
    expect(await screen.findByText('Feature saved')).toBeTruthy();
  });

  it('a feature packages include cannot be deleted: the button says why, to the keyboard too, and sends nothing', async () => {
    await open('/admin/features');
    await findCell('AI chat');
    const remove = screen.getByRole('button', { name: 'Delete AI chat' });
    // What includes it may be drawn a moment after the list itself on a busy machine.
    await waitFor(() => expect(remove.getAttribute('aria-disabled')).toBe('true'));
    const reason =
      'Included in Base, Pro, and Team: remove it from those packages first, on the Packages page.';
    expect(document.getElementById(remove.getAttribute('aria-describedby') ?? '')?.textContent).toBe(reason);
    fireEvent.click(remove);
    expect(screen.queryByRole('dialog', { name: 'Delete feature AI chat?' })).toBeNull();
    fireEvent.focus(remove);
    expect(await screen.findByRole('tooltip')).toHaveProperty('textContent', reason);
    expect(api.calls('DELETE /admin/features/f-chat')).toHaveLength(0);
  });

  it('delete asks first; a refusal the list could not foresee (feature in use) is shown; a free feature goes', async () => {
    // The list says no package includes Voice commands; one did by the time of the delete.
    let refuse = true;
    api.on('DELETE /admin/features/f-voice', () => {
      if (refuse)
        return problem(
          409,
          'This feature is included in Pro. Remove it from that plan first.',
          'feature_in_use',
        );
      catalogue = catalogue.filter((item) => item.feature_id !== 'f-voice');
      return { status: 204, body: '' };
    });
    await open('/admin/features');
    await findCell('Voice commands');

    fireEvent.click(screen.getByRole('button', { name: 'Delete Voice commands' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete feature Voice commands?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete feature' }));
    expect(
      await within(dialog).findByText('This feature is included in Pro. Remove it from that plan first.'),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Delete feature Voice commands?' })).toBeNull(),
    );

    refuse = false;
    fireEvent.click(screen.getByRole('button', { name: 'Delete Voice commands' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete feature Voice commands?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete feature' }));
    expect(await screen.findByText('Feature deleted')).toBeTruthy();
    await waitFor(() =>
      expect(
        within(screen.getByRole('table', { name: 'Features' })).queryByText('Voice commands'),
      ).toBeNull(),
    );
    expect(api.calls('DELETE /admin/features/f-voice')).toHaveLength(2);
  });
});
