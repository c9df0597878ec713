import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP_API_KEY } from '../../src/main/desktop-config.js';
import type { FloatingSeat } from '../../src/main/floating-seat.js';
import { createHandlers, type HandlerDeps } from '../../src/main/handlers.js';
import { createBridgeDispatcher } from '../../src/main/ipc.js';
import { createMemorySecretStore } from '../../src/main/secret-store.js';
import { issueLicense } from '../../src/server/licensing/index.js';
import { bridgeChannels, type FloatingSeatState } from '../../src/shared/bridge.js';
import { STRONG_PASSWORD, uniqueEmail } from '../support/test-server.js';
import { updateServiceForTests } from './support/fake-app-updater.js';
import { type LicensingServer, refusedUrl, startLicensingServer } from './support/licensing-server.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

describe('desktop floating seats: real main-process code, real API server, real lease verifier', () => {
  let server: LicensingServer;
  let dir: string;
  let licenseKey: string;
  let sequence = 0;

  beforeAll(async () => {
    server = await startLicensingServer();
    dir = await mkdtemp(join(tmpdir(), 'desktop-floating-'));
    // A 2-seat floating plan: a seat lasts a day after the last heartbeat, borrowed up to 7 days.
    const plan = await server.app.db
      .selectFrom('plans')
      .selectAll()
      .where('code', '=', 'pro-monthly')
      .executeTakeFirstOrThrow();
    const floatingPlan = {
      ...plan,
      id: randomUUID(),
      code: 'floating-team',
      name: 'Floating team',
      floating_seats: 2,
      floating_lease_minutes: 24 * 60,
      floating_borrow_days: 7,
    };
    await server.app.db.insertInto('plans').values(floatingPlan).execute();
    const owner = await server.app.authService.createAccount({
      email: uniqueEmail('floating'),
      password: STRONG_PASSWORD,
      role: 'user',
      verified: true,
    });
    const license = await issueLicense(server.app.db, server.clock, server.app.events, {
      userId: owner.id,
      plan: floatingPlan,
      subscriptionId: null,
    });
    licenseKey = license.license_key;
  });
  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /**
   * One desktop as main builds it: its own machine id, state files and name; heartbeats timed by a
   * timer the test steps (`timers` holds what main scheduled). `fetch` cuts its network.
   */
  function desktop(
    name: string,
    reuse?: { statePath: string; machineId: string },
    fetch?: HandlerDeps['fetch'],
  ) {
    const n = ++sequence;
    const statePath = reuse?.statePath ?? join(dir, `license-state-${n}.json`);
    const machineId = reuse?.machineId ?? `machine-${name}-${randomUUID()}`;
    const timers: number[] = [];
    let seat: FloatingSeat | undefined;
    const handlers = createHandlers({
      secrets: createMemorySecretStore(),
      serverUrl: server.baseUrl,
      apiKey: DESKTOP_API_KEY,
      requestTimeoutMs: 5000,
      licenseStatePath: statePath,
      floatingSeatPath: `${statePath}.floating.json`,
      leasePublicKeys: server.leaseKeys,
      machineId: () => machineId,
      deviceName: () => name,
      now: () => server.clock.now(),
      app: { version: '0.1.0', platform: process.platform },
      updates: updateServiceForTests({
        serverUrl: server.baseUrl,
        licenseStatePath: statePath,
        settingsPath: join(dir, `update-settings-${n}.json`),
      }).service,
      schedule: (_run, ms) => {
        timers.push(ms);
        return () => undefined;
      },
      onFloatingSeat: (made) => {
        seat = made;
      },
      ...(fetch ? { fetch } : {}),
    });
    if (!seat) throw new Error('main made no floating seat');
    return { handlers, dispatch: createBridgeDispatcher(handlers), seat, timers, statePath, machineId };
  }

  it('two run, the third is told who holds the seats; one quits and the third gets its seat; one borrows 3 days, goes offline, and 4 days later its seat is back', async () => {
    server.clock.freeze();
    const [ann, bob, cat] = [desktop('Ann laptop'), desktop('Bob desktop'), desktop('Cat PC')];
    for (const machine of [ann, bob, cat]) await machine.dispatch(bridgeChannels.setLicenseKey, [licenseKey]);

    // Start: Ann and Bob take the two seats, each heartbeating at the interval the server set.
    expect(await ann.seat.start()).toMatchObject({ status: 'held', seats: 2, in_use: 1 });
    expect(await bob.seat.start()).toMatchObject({ status: 'held', seats: 2, in_use: 2 });
    expect(ann.timers.at(-1)).toBe(8 * HOUR_MS);

    // Ann's license check says she runs on her seat (a floating license has no activation).
    expect(await ann.handlers[bridgeChannels.checkLicenseStatus]()).toMatchObject({
      valid: true,
      status: 'active',
    });

    // Cat is told who holds them (through the bridge as the renderer asks), and when one may come back.
    const refused = await cat.seat.start();
    expect(refused.status).toBe('full');
    expect(refused.holders.map((holder) => holder.device_name).sort()).toEqual(['Ann laptop', 'Bob desktop']);
    expect(await cat.dispatch(bridgeChannels.floatingSeat, [])).toEqual(refused);
    expect(refused.retry_at).toBe(new Date(server.clock.now().getTime() + DAY_MS).toISOString());
    const catCheck = await cat.handlers[bridgeChannels.checkLicenseStatus]();
    expect(catCheck).toMatchObject({ valid: false, message: refused.message });

    // Ann quits: her seat goes back, and Cat's next try gets it.
    await ann.seat.quit();
    expect(await cat.seat.start()).toMatchObject({ status: 'held', in_use: 2 });

    // Bob borrows for 3 days through the bridge ("Borrow for offline use…"), then his network goes.
    const borrowed = (await bob.dispatch(bridgeChannels.borrowFloatingSeat, [3])) as FloatingSeatState;
    expect(borrowed).toMatchObject({
      status: 'held',
      borrowed_until: new Date(server.clock.now().getTime() + 3 * DAY_MS).toISOString(),
      max_borrow_days: 7,
    });
    await bob.seat.quit();
    const dead = await refusedUrl();
    const offlineBob = desktop('Bob desktop', bob, (input, init) =>
      fetch(input.replace(server.baseUrl, dead), init),
    );
    // Cat keeps heartbeating every 8 hours (as main's timer would) while the days go by.
    const days = async (count: number) => {
      for (let step = 0; step < count * 3; step++) {
        server.clock.advance(8 * HOUR_MS);
        expect(await cat.seat.heartbeat()).toMatchObject({ status: 'held' });
      }
    };
    await days(1);
    expect(await offlineBob.seat.start()).toMatchObject({
      status: 'held',
      borrowed_until: borrowed.borrowed_until,
    });
    expect(await offlineBob.handlers[bridgeChannels.checkLicenseStatus]()).toMatchObject({ valid: true });

    // Ann comes back a day later: both seats are out (Bob's borrowed, Cat's kept by heartbeats).
    const annAgain = desktop('Ann laptop', ann);
    expect(await annAgain.seat.start()).toMatchObject({ status: 'full' });

    // Four days after the borrow: it ended unreturned, so Bob's seat is back and Ann takes it.
    await days(3);
    expect(await annAgain.seat.start()).toMatchObject({ status: 'held', in_use: 2 });
    // Offline, Bob's borrowed lease has ended too: the app no longer runs on it.
    expect(await offlineBob.seat.start()).toMatchObject({ status: 'offline' });
    expect(await offlineBob.handlers[bridgeChannels.checkLicenseStatus]()).toMatchObject({ valid: false });
    const overdue = await server.app.db
      .selectFrom('security_events')
      .select('details')
      .where('type', '=', 'floating_borrow_overdue')
      .execute();
    expect(overdue.map((event) => JSON.parse(event.details ?? '{}') as { device_name: string })).toEqual([
      expect.objectContaining({ device_name: 'Bob desktop' }),
    ]);
  });

  it('a member of a floating organisation: the seat taken signed in is held by main with the machine’s own key, and a removed member’s machine stops', async () => {
    server.clock.freeze();
    const db = server.app.db;
    const now = server.clock.now().toISOString();
    const account = async (label: string) => {
      const email = uniqueEmail(label);
      const user = await server.app.authService.createAccount({
        email,
        password: STRONG_PASSWORD,
        role: 'user',
        verified: true,
      });
      return { id: user.id, email, token: await signIn(email) };
    };
    const signIn = async (email: string) => {
      const signedIn = await fetch(`${server.baseUrl}/api/v1/auth/login/json`, {
        method: 'POST',
        headers: { 'x-api-key': DESKTOP_API_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: STRONG_PASSWORD }),
      });
      return ((await signedIn.json()) as { access_token: string }).access_token;
    };
    const [owner, dev] = [await account('owner'), await account('dev')];
    const organisationId = randomUUID();
    await db
      .insertInto('organisations')
      .values({
        id: organisationId,
        name: 'Floaters',
        billing_details: null,
        created_by: owner.id,
        created_at: now,
        updated_at: now,
      })
      .execute();
    for (const [who, role] of [
      [owner, 'owner'],
      [dev, 'member'],
    ] as const)
      await db
        .insertInto('organisation_members')
        .values({
          organisation_id: organisationId,
          user_id: who.id,
          role,
          seat_assigned_at: null,
          joined_at: now,
        })
        .execute();
    const plan = await db
      .selectFrom('plans')
      .selectAll()
      .where('code', '=', 'floating-team')
      .executeTakeFirstOrThrow();
    await issueLicense(db, server.clock, server.app.events, {
      userId: owner.id,
      plan,
      organisation: { id: organisationId, seats: 1 },
    });

    // The portal in the desktop checks a seat out signed in, and hands main the machine's key.
    const laptop = desktop('Dev laptop');
    const hardwareId = await laptop.handlers[bridgeChannels.getHardwareId]();
    const checkout = await fetch(
      `${server.baseUrl}/api/v1/organisations/${organisationId}/floating/checkout`,
      {
        method: 'POST',
        headers: {
          'x-api-key': DESKTOP_API_KEY,
          'content-type': 'application/json',
          authorization: `Bearer ${dev.token}`,
        },
        body: JSON.stringify({ hardware_id: hardwareId, device_name: 'Dev laptop' }),
      },
    );
    expect(checkout.status).toBe(201);
    const { seat_key: seatKey } = (await checkout.json()) as { seat_key: string };
    await laptop.dispatch(bridgeChannels.setLicenseKey, [seatKey]);

    // The next license check finds the key new: main holds the seat with it and heartbeats.
    expect(await laptop.handlers[bridgeChannels.checkLicenseStatus]()).toMatchObject({ valid: true });
    expect(await laptop.seat.state()).toMatchObject({ status: 'held', seats: 1, in_use: 1 });
    expect(laptop.timers.at(-1)).toBe(8 * HOUR_MS);
    server.clock.advance(8 * HOUR_MS);
    expect(await laptop.seat.heartbeat()).toMatchObject({ status: 'held' });

    // Removed from the organisation: the seat comes back and the machine is refused.
    owner.token = await signIn(owner.email);
    const removed = await fetch(
      `${server.baseUrl}/api/v1/organisations/${organisationId}/members/${dev.id}`,
      {
        method: 'DELETE',
        headers: { 'x-api-key': DESKTOP_API_KEY, authorization: `Bearer ${owner.token}` },
      },
    );
    expect(removed.status).toBe(204);
    expect(await laptop.seat.heartbeat()).toMatchObject({ status: 'refused' });
    expect(await laptop.handlers[bridgeChannels.checkLicenseStatus]()).toMatchObject({ valid: false });
  });

  it('a node-locked license or no key is not floating: nothing is checked out', async () => {
    const machine = desktop('Solo');
    expect(await machine.seat.start()).toMatchObject({ status: 'not_floating' });
    const hardwareId = await machine.handlers[bridgeChannels.getHardwareId]();
    const base = await server.activatedLicense(hardwareId);
    await machine.dispatch(bridgeChannels.setLicenseKey, [base.license_key]);
    expect(await machine.seat.start()).toMatchObject({ status: 'not_floating' });
    expect(machine.timers).toEqual([]);
  });
});
