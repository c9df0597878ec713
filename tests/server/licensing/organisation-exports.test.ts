import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { expect, it } from 'vitest';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { signIn } from '../helpers/admin-helpers.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import { member } from '../helpers/license-helpers.js';
import { join, seatOrganisation } from '../helpers/organisation-seat-helpers.js';

const HOUR_MS = 3_600_000;

/** A machine on the organisation's license, held by `userId`, from `activatedAt` to `deactivatedAt`. */
async function machine(
  s: TestServer,
  licenseId: string,
  userId: string,
  deviceName: string,
  activatedAt: Date,
  deactivatedAt: Date | null = null,
) {
  await s.app.db
    .insertInto('activations')
    .values({
      id: randomUUID(),
      license_id: licenseId,
      hardware_id: `hw-${randomUUID()}`,
      device_name: deviceName,
      platform: 'win32',
      app_version: '2.0.0',
      activated_at: activatedAt.toISOString(),
      last_seen_at: (deactivatedAt ?? activatedAt).toISOString(),
      deactivated_at: deactivatedAt?.toISOString() ?? null,
      deactivated_reason: deactivatedAt ? ('user' as const) : null,
      activated_by: userId,
      label: null,
    })
    .execute();
}

/** Security events written straight into the log, `count` of them an hour apart from `start`. */
async function events(
  s: TestServer,
  count: number,
  start: Date,
  details: Record<string, unknown>,
  type = 'organisation_updated',
) {
  const rows = Array.from({ length: count }, (_, index) => ({
    id: randomUUID(),
    type,
    severity: 'info' as const,
    user_id: null,
    actor_id: null,
    ip: '198.51.100.7',
    user_agent: 'test',
    details: JSON.stringify({ ...details, index }),
    created_at: new Date(start.getTime() + index * HOUR_MS).toISOString(),
  }));
  for (let index = 0; index < rows.length; index += 200)
    await s.app.db
      .insertInto('security_events')
      .values(rows.slice(index, index + 200))
      .execute();
}

const csvOf = (body: string) => parse(body, { columns: true }) as Record<string, string>[];
const linesOf = (body: string) =>
  body
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describeOnEveryDatabase('Organisation exports for audits', (server) => {
  it('streams the seat ledger as CSV and JSON Lines, within the dates, with formulas kept as text', async () => {
    const s = server();
    const owner = await member(s);
    const org = await seatOrganisation(s, owner, 5);
    const bea = await join(s, org, { role: 'admin' });
    const day = (n: number) => new Date(Date.UTC(2026, 0, n, 9));
    await machine(s, org.license.id, owner.id, 'Olivia laptop', day(2), day(10));
    await machine(s, org.license.id, bea.id, '=HYPERLINK("http://evil.example","x")', day(5));
    await machine(s, org.license.id, bea.id, 'Bea desktop', day(20), day(25));
    // Another organisation's machine never shows.
    const other = await seatOrganisation(s, await member(s));
    await machine(s, other.license.id, other.owner.id, 'Not theirs', day(6));

    const csv = await s.api({
      path: `/organisations/${org.id}/exports/seat-ledger?format=csv`,
      token: bea.token,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="seat-ledger.csv"');
    const rows = csvOf(csv.body);
    expect(rows.map((row) => row.device_name)).toEqual([
      'Olivia laptop',
      '\'=HYPERLINK("http://evil.example","x")',
      'Bea desktop',
    ]);
    expect(rows[0]).toMatchObject({
      user_email: owner.email,
      activated_at: day(2).toISOString(),
      deactivated_at: day(10).toISOString(),
      deactivated_reason: 'user',
    });
    expect(rows[1]).toMatchObject({ user_email: bea.email, deactivated_at: '' });

    // On a seat at any moment of the 11th to the 19th: the machine still active, not the ended one.
    const ranged = await s.api({
      path: `/organisations/${org.id}/exports/seat-ledger?format=jsonl&from=2026-01-11&to=2026-01-19`,
      token: owner.token,
    });
    expect(ranged.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    const lines = linesOf(ranged.body);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ user_email: bea.email, deactivated_at: null, platform: 'win32' });
    expect(lines[0]!.device_name).toBe('=HYPERLINK("http://evil.example","x")');
  });

  it('exports only the organisation’s own security events, oldest first, across many pages', async () => {
    const s = server();
    const owner = await member(s);
    const org = await seatOrganisation(s, owner);
    const other = await seatOrganisation(s, await member(s));
    const start = new Date(Date.UTC(2025, 11, 1));
    await events(s, 1_234, start, { organisation_id: org.id });
    await events(s, 50, start, { organisation_id: other.id });

    const response = await s.api({
      path: `/organisations/${org.id}/exports/security-events?format=jsonl`,
      token: owner.token,
    });
    expect(response.statusCode).toBe(200);
    const lines = linesOf(response.body).filter((line) => line.type === 'organisation_updated');
    expect(lines).toHaveLength(1_234);
    expect(lines.map((line) => (line.details as { index: number }).index)).toEqual(
      Array.from({ length: 1_234 }, (_, index) => index),
    );
    expect(
      lines.every((line) => (line.details as { organisation_id: string }).organisation_id === org.id),
    ).toBe(true);

    const csv = await s.api({
      path: `/organisations/${org.id}/exports/security-events?from=2025-12-02&to=2025-12-02`,
      token: owner.token,
    });
    const rows = csvOf(csv.body).filter((row) => row.type === 'organisation_updated');
    expect(rows).toHaveLength(24);
    expect(JSON.parse(rows[0]!.details!)).toEqual({ organisation_id: org.id, index: 24 });
  });

  it('refuses members, outsiders and bad queries with a JSON error, never part of a file', async () => {
    const s = server();
    const owner = await member(s);
    const org = await seatOrganisation(s, owner);
    const plain = await join(s, org, { role: 'member' });
    const outsider = await member(s);
    for (const kind of ['seat-ledger', 'security-events']) {
      const path = `/organisations/${org.id}/exports/${kind}`;
      expectApiError(await s.api({ path, token: plain.token }), 403, 'organisation_admin_required');
      expectApiError(await s.api({ path, token: outsider.token }), 404, 'organisation_not_found');
      for (const query of ['format=xlsx', 'from=2026-02-01&to=2026-01-01', 'from=yesterday', 'page=2']) {
        const bad = await s.api({ path: `${path}?${query}`, token: owner.token });
        expect(bad.statusCode, query).toBe(400);
        expect(bad.headers['content-type']).toContain('application/json');
      }
    }
  });

  it('lets administrators export the whole security log, filtered as its list is', async () => {
    const s = server();
    const admin = await signIn(s, 'admin');
    const user = await member(s);
    const start = new Date(Date.UTC(2024, 0, 1));
    await events(s, 600, start, { source: 'load' }, 'license_updated');
    await events(s, 7, start, { source: 'other' }, 'plan_updated');

    const all = await s.api({
      path: '/admin/security-events/export?format=jsonl&type=license_updated',
      token: admin.token,
    });
    expect(all.statusCode).toBe(200);
    expect(linesOf(all.body)).toHaveLength(600);

    const unknown = await s.api({
      path: '/admin/security-events/export?type=no_such_type',
      token: admin.token,
    });
    expect(unknown.statusCode).toBe(400);
    expectApiError(
      await s.api({ path: '/admin/security-events/export', token: user.token }),
      403,
      'admin_required',
    );
  });
});
