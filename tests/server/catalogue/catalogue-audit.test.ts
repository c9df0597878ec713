import { beforeAll, expect, it } from 'vitest';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { type SignedIn, signInAsAdmin } from '../helpers/admin-helpers.js';

// Every administrator's write to the catalogue (features, plans, licensing settings) leaves a
// security event naming the administrator, committed with the change itself.

let sequence = 0;
const unique = (label: string) => `${label}_${process.pid}_${++sequence}`;

interface EventRow {
  type: string;
  severity: string;
  actor_id: string | null;
  user_id: string | null;
  ip: string | null;
  details: string | null;
}

/** The events of a type whose details mention `needle`, oldest first. */
async function eventsAbout(s: TestServer, type: string, needle: string): Promise<EventRow[]> {
  const rows = await s.app.db
    .selectFrom('security_events')
    .select(['type', 'severity', 'actor_id', 'user_id', 'ip', 'details'])
    .where('type', '=', type)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.filter((row) => row.details?.includes(needle));
}

function expectOneByAdmin(events: EventRow[], admin: SignedIn): Record<string, unknown> {
  expect(events).toHaveLength(1);
  const [event] = events;
  expect(event?.actor_id).toBe(admin.id);
  expect(event?.user_id).toBeNull();
  expect(event?.ip).toBeTruthy();
  return JSON.parse(event?.details ?? '{}') as Record<string, unknown>;
}

describeOnEveryDatabase('catalogue writes are audited', (server) => {
  let admin: SignedIn;

  beforeAll(async () => {
    admin = await signInAsAdmin(server());
  });

  const call = (method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) =>
    server().api({ method, path, token: admin.token, body });

  it('records feature create, update and delete with the acting admin', async () => {
    const key = unique('audited');
    const created = await call('POST', '/admin/features', { key, name: 'Audited', kind: 'boolean' });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ feature_id: string }>().feature_id;
    expect(expectOneByAdmin(await eventsAbout(server(), 'feature_created', id), admin)).toMatchObject({
      key,
    });

    const updated = await call('PUT', `/admin/features/${id}`, { name: 'Audited again' });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(expectOneByAdmin(await eventsAbout(server(), 'feature_updated', id), admin)).toMatchObject({
      changes: { name: 'Audited again' },
    });

    const deleted = await call('DELETE', `/admin/features/${id}`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(expectOneByAdmin(await eventsAbout(server(), 'feature_deleted', id), admin)).toMatchObject({
      key,
      name: 'Audited again',
    });
  });

  it('records nothing when a feature write is refused', async () => {
    const key = unique('refused');
    expect((await call('POST', '/admin/features', { key, name: 'Once', kind: 'boolean' })).statusCode).toBe(
      201,
    );
    const before = await eventsAbout(server(), 'feature_created', key);
    const duplicate = await call('POST', '/admin/features', { key, name: 'Twice', kind: 'boolean' });
    expect(duplicate.statusCode).toBe(409);
    expect(await eventsAbout(server(), 'feature_created', key)).toEqual(before);
  });

  it('records plan create, update and removal (deleted or archived)', async () => {
    const code = unique('plan').replaceAll('_', '-');
    const created = await call('POST', '/plans', {
      code,
      name: 'Audited plan',
      price_minor: 50_000,
      currency: 'INR',
      billing_interval: 'month',
      max_activations: 2,
      features: [],
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ id: string }>().id;
    expect(expectOneByAdmin(await eventsAbout(server(), 'plan_created', id), admin)).toMatchObject({
      code,
      price_minor: 50_000,
    });

    expect((await call('PUT', `/plans/${id}`, { max_activations: 5 })).statusCode).toBe(200);
    expect(expectOneByAdmin(await eventsAbout(server(), 'plan_updated', id), admin)).toMatchObject({
      changes: { max_activations: 5 },
    });

    expect((await call('DELETE', `/plans/${id}`)).statusCode).toBe(200);
    expect(expectOneByAdmin(await eventsAbout(server(), 'plan_deleted', id), admin)).toMatchObject({
      outcome: 'deleted',
    });
  });

  it('records licensing settings changes with the values before and after', async () => {
    const before = await eventsAbout(server(), 'licensing_settings_changed', '"seat_reclaim_after_days":12');
    const response = await call('PUT', '/admin/licensing/settings', { seat_reclaim_after_days: 12 });
    expect(response.statusCode, response.body).toBe(200);
    const after = await eventsAbout(server(), 'licensing_settings_changed', '"seat_reclaim_after_days":12');
    expect(after).toHaveLength(before.length + 1);
    expect(after.at(-1)?.actor_id).toBe(admin.id);
    expect(JSON.parse(after.at(-1)?.details ?? '{}')).toMatchObject({
      after: { seat_reclaim_after_days: 12 },
    });
  });
});
