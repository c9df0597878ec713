import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaseUsage } from '../../../src/shared/lease.js';
import { createDatabase, type DatabaseHandle } from '../../../src/server/platform/db/database.js';
import type { UsageReserver } from '../../../src/server/licensing/leases/lease-signer.js';
import { reserveTogether } from '../../../src/server/licensing/usage/reservation-batches.js';

type ReserveRequest = Parameters<UsageReserver>[0];

const request = (licenseId: string): ReserveRequest => ({
  licenseId,
  hardwareId: `hw-${licenseId}`,
  features: [],
  expiresAt: '2030-01-01T00:00:00.000Z',
});

const usage = (licenseId: string): LeaseUsage[] => [
  {
    key: licenseId,
    period_start: '2026-12-01T00:00:00.000Z',
    period_end: '2027-01-01T00:00:00.000Z',
    reserved: 1,
  },
];

/**
 * Reservations written together on SQLite (reservation-batches.ts), against a real SQLite file: the
 * statements here stand in for a reservation's (one row per request, in a table of the test's own).
 */
describe('reservations asked for in one turn are written in one transaction', () => {
  let handle: DatabaseHandle;
  let dataDir: string;
  const begun: string[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'portal-reservation-batches-'));
    handle = createDatabase({
      databaseUrl: undefined,
      dataDir,
      observeQuery: (query) => {
        if (/^begin/i.test(query.sql)) begun.push(query.sql);
      },
    });
    await sql`create table held (license_id text primary key)`.execute(handle.db);
  });
  afterAll(async () => {
    await handle.db.destroy();
    await rm(dataDir, { recursive: true, force: true });
  });

  const heldRows = async () =>
    (
      await sql<{ license_id: string }>`select license_id from held order by license_id`.execute(handle.db)
    ).rows.map((row) => row.license_id);

  it('answers each once committed; one that fails is undone alone and fails alone', async () => {
    await sql`delete from held`.execute(handle.db);
    begun.length = 0;
    const seenByLater: string[][] = [];
    const reserve = reserveTogether(handle.db, async (trx, asked) => {
      await sql`insert into held (license_id) values (${asked.licenseId})`.execute(trx);
      seenByLater.push(
        (
          await sql<{ license_id: string }>`select license_id from held order by license_id`.execute(trx)
        ).rows.map((row) => row.license_id),
      );
      if (asked.licenseId === 'b') throw new Error('b cannot be reserved');
      return usage(asked.licenseId);
    });

    const answers = await Promise.allSettled([
      reserve(request('a')),
      reserve(request('b')),
      reserve(request('c')),
    ]);

    expect(answers[0]).toEqual({ status: 'fulfilled', value: usage('a') });
    expect(answers[1]).toMatchObject({ status: 'rejected', reason: new Error('b cannot be reserved') });
    expect(answers[2]).toEqual({ status: 'fulfilled', value: usage('c') });
    expect(begun, 'the three were written in one transaction').toHaveLength(1);
    // b's row was there while its reservation ran, and gone for c: its savepoint was rolled back.
    expect(seenByLater).toEqual([['a'], ['a', 'b'], ['a', 'c']]);
    expect(await heldRows()).toEqual(['a', 'c']);
  });

  it('a reservation asked for after the batch has gone is written in a transaction of its own', async () => {
    await sql`delete from held`.execute(handle.db);
    begun.length = 0;
    const reserve = reserveTogether(handle.db, async (trx, asked) => {
      await sql`insert into held (license_id) values (${asked.licenseId})`.execute(trx);
      return usage(asked.licenseId);
    });
    expect(await reserve(request('d'))).toEqual(usage('d'));
    expect(await reserve(request('e'))).toEqual(usage('e'));
    expect(begun).toHaveLength(2);
    expect(await heldRows()).toEqual(['d', 'e']);
  });

  it('when the transaction cannot commit, every reservation of it fails and none is kept', async () => {
    await sql`delete from held`.execute(handle.db);
    const reserve = reserveTogether(handle.db, async (trx, asked) => {
      await sql`insert into held (license_id) values (${asked.licenseId})`.execute(trx);
      // Ends the batch's own savepoint: its release then fails, and what the transaction holds is
      // no longer known.
      if (asked.licenseId === 'g') await sql`release savepoint reservation`.execute(trx);
      return usage(asked.licenseId);
    });
    const answers = await Promise.allSettled([reserve(request('f')), reserve(request('g'))]);
    expect(answers.map((answer) => answer.status)).toEqual(['rejected', 'rejected']);
    expect(await heldRows()).toEqual([]);
  });
});
