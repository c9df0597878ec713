import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AdminRelease } from '../../../src/shared/api/distribution';
import { FakeApi } from '../support/fake-api';
import { renderApp, servicesFor } from '../support/render-app';

// The page is lazy and the session gate runs first: under a loaded machine that takes more than a second.
configure({ asyncUtilTimeout: 5000 });

const ID_STABLE = '6f1c1f70-3a43-4c4e-9d0e-1b0c0f7e4a11';
const ID_BETA = '0b7e2f0c-5d1e-4f4a-8a3b-2c9d4e5f6a7b';

const release = (id: string, extra: Partial<AdminRelease> = {}): AdminRelease => ({
  id,
  platform: 'linux',
  channel: 'stable',
  version: '1.5.0',
  file_name: 'Assistant-1.5.0.AppImage',
  size_bytes: 1000,
  sha256: 'ab',
  sha512: 'cd',
  rollout_percent: 20,
  state: 'rolling_out',
  paused_at: null,
  yanked_at: null,
  release_notes: 'Faster start.',
  checks: 1200,
  downloads: 180,
  installs: 150,
  published_at: '2026-01-01T10:00:00.000Z',
  ...extra,
});

let api: FakeApi;
let releases: AdminRelease[];

beforeEach(async () => {
  api = await new FakeApi().start();
  releases = [
    release(ID_STABLE),
    release(ID_BETA, {
      channel: 'beta',
      version: '1.6.0-beta.1',
      rollout_percent: 100,
      state: 'live',
      release_notes: '',
      checks: 40,
      downloads: 30,
      installs: 20,
    }),
  ];
  api.on('GET /admin/releases', (call) => {
    const channel = call.query.get('channel');
    return { json: { releases: releases.filter((item) => !channel || item.channel === channel) } };
  });
  api.on(`PATCH /admin/releases/${ID_STABLE}`, (call) => {
    const body = JSON.parse(call.body) as { rollout_percent?: number; paused?: boolean; yanked?: true };
    releases = releases.map((item) => {
      if (item.id !== ID_STABLE) return item;
      const rollout = body.rollout_percent ?? item.rollout_percent;
      const paused_at =
        body.paused === undefined ? item.paused_at : body.paused ? '2026-01-02T10:00:00.000Z' : null;
      const yanked_at = body.yanked ? '2026-01-03T10:00:00.000Z' : item.yanked_at;
      const state = yanked_at ? 'yanked' : paused_at ? 'paused' : rollout < 100 ? 'rolling_out' : 'live';
      return { ...item, rollout_percent: rollout, paused_at, yanked_at, state };
    });
    return { json: releases.find((item) => item.id === ID_STABLE) };
  });
});
afterEach(async () => {
  await api.close();
});

describe('/admin/releases', () => {
  it('lists the releases with rollout and counters, filters by channel, raises a rollout and pauses', async () => {
    const services = await servicesFor(api, 'admin');
    renderApp(services, '/admin/releases');
    await screen.findByRole('heading', { level: 1, name: 'Releases' }, { timeout: 10_000 });
    const table = within(await screen.findByRole('table', { name: 'Releases' }));
    expect(await table.findByText('1.5.0')).toBeTruthy();
    expect(table.getByText('Rolling out')).toBeTruthy();
    expect(table.getByText('20 %')).toBeTruthy();
    expect(table.getByText(Intl.NumberFormat().format(1200))).toBeTruthy();
    expect(table.getByText('1.6.0-beta.1')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Channel'), { target: { value: 'beta' } });
    await waitFor(() => expect(api.calls('GET /admin/releases').at(-1)?.query.get('channel')).toBe('beta'));
    await waitFor(() => expect(table.queryByText('1.5.0')).toBeNull());
    fireEvent.change(screen.getByLabelText('Channel'), { target: { value: '' } });
    expect(await table.findByText('1.5.0')).toBeTruthy();

    fireEvent.click(table.getByRole('button', { name: 'Manage 1.5.0 (Linux, stable)' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Release 1.5.0' }));
    fireEvent.change(dialog.getByLabelText('Rollout'), { target: { value: '50 %' } });
    fireEvent.click(dialog.getByRole('switch', { name: /Paused/ }));
    fireEvent.click(dialog.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Release changed')).toBeTruthy();
    // Only what changed is sent: the notes were left alone.
    expect(JSON.parse(api.calls(`PATCH /admin/releases/${ID_STABLE}`)[0]?.body ?? '{}')).toEqual({
      rollout_percent: 50,
      paused: true,
    });
    expect(await table.findByText('Paused')).toBeTruthy();
  });

  it('yanks a release after asking, and shows the server’s refusal of a lower rollout', async () => {
    api.on(`PATCH /admin/releases/${ID_BETA}`, () => ({
      status: 409,
      json: {
        code: 'rollout_lowered',
        message: 'The rollout is at 100 % and can only be raised',
        detail: 'The rollout is at 100 % and can only be raised',
      },
    }));
    const services = await servicesFor(api, 'admin');
    renderApp(services, '/admin/releases');
    const table = within(await screen.findByRole('table', { name: 'Releases' }, { timeout: 10_000 }));

    fireEvent.click(await table.findByRole('button', { name: 'Manage 1.5.0 (Linux, stable)' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Release 1.5.0' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Yank…' }));
    const confirm = within(await screen.findByRole('dialog', { name: 'Yank 1.5.0 (Linux, stable)?' }));
    fireEvent.click(confirm.getByRole('button', { name: 'Yank release' }));
    expect(await screen.findByText('Release yanked')).toBeTruthy();
    expect(JSON.parse(api.calls(`PATCH /admin/releases/${ID_STABLE}`)[0]?.body ?? '{}')).toEqual({
      yanked: true,
    });
    expect(await table.findByText('Yanked')).toBeTruthy();

    fireEvent.click(table.getByRole('button', { name: 'Manage 1.6.0-beta.1 (Linux, beta)' }));
    const beta = within(await screen.findByRole('dialog', { name: 'Release 1.6.0-beta.1' }));
    fireEvent.change(beta.getByLabelText('Release notes'), { target: { value: 'New editor.' } });
    fireEvent.click(beta.getByRole('button', { name: 'Save' }));
    expect(await beta.findByText('The rollout is at 100 % and can only be raised')).toBeTruthy();
  });
});
