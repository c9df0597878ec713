import { describe, expect, it } from 'vitest';
import {
  type LicenseRefusal,
  licenseRefusalSchema,
  type LicenseStatusAnswer,
  leaseSigningKeysSchema,
  licenseStatusSchema,
} from '../../../src/shared/api/licenses.js';
import { floatingSeatAnswerSchema } from '../../../src/shared/api/floating.js';
import { verifyCheckProof, verifyLease } from '../../../src/shared/lease.js';
import { describeOnEveryDatabase, type TestServer, WEB_API_KEY } from '../../support/test-server.js';
import {
  createPlan,
  DAY_MS,
  giveLicense,
  licenseSuiteOptions,
  machine,
  member,
} from '../helpers/license-helpers.js';

const MINUTE_MS = 60_000;

/** The suite's server listens once (a second listen is refused), shared by its tests. */
const listening = new WeakMap<TestServer, Promise<string>>();
const baseOf = (s: TestServer): Promise<string> => {
  const base = listening.get(s) ?? s.listen();
  listening.set(s, base);
  return base;
};

/** A lease ends with its seat: at the seat's end, to the second below. */
function expectEndsWith(leaseExpiresAt: string, heldUntil: string | null) {
  const gap = Date.parse(heldUntil ?? '') - Date.parse(leaseExpiresAt);
  expect(gap).toBeGreaterThanOrEqual(0);
  expect(gap).toBeLessThan(1000);
}

async function floatingLicense(s: TestServer, seats: number, lease: number, borrow: number) {
  const owner = await member(s);
  const plan = await createPlan(s, {
    price: 99_900,
    interval: 'month',
    features: { ai_chat: 100 },
    floating: { seats, leaseMinutes: lease, borrowDays: borrow },
  });
  return giveLicense(s, owner, plan);
}

/** A machine's license check over a real socket, as the desktop makes it. */
async function status(base: string, key: string, hw: string, nonce?: string) {
  const query = new URLSearchParams({ license_key: key, hardware_id: hw, ...(nonce ? { nonce } : {}) });
  const response = await fetch(`${base}/api/v1/licensing/status?${query}`, {
    headers: { 'x-api-key': WEB_API_KEY },
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

async function validate(base: string, key: string, hw: string) {
  const response = await fetch(`${base}/api/v1/licenses/validate`, {
    method: 'POST',
    headers: { 'x-api-key': WEB_API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ license_key: key, hardware_id: hw }),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

async function floatingCall(base: string, path: string, body: Record<string, unknown>) {
  const response = await fetch(`${base}/api/v1/licensing/floating/${path}`, {
    method: 'POST',
    headers: { 'x-api-key': WEB_API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

function expectValid(answer: { status: number; body: unknown }): LicenseStatusAnswer {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return licenseStatusSchema.parse(answer.body);
}

function expectNotActivated(answer: { status: number; body: unknown }): LicenseRefusal {
  expect(answer.status, JSON.stringify(answer.body)).toBe(403);
  const refusal = licenseRefusalSchema.parse(answer.body);
  expect(refusal).toMatchObject({ code: 'machine_not_activated', valid: false, requires_activation: true });
  return refusal;
}

describe('the license check on a floating license', () => {
  describeOnEveryDatabase(
    'a machine holding a floating seat is licensed there',
    (server) => {
      it('valid while the seat is held, with a lease no longer than the seat; refused once the lease lapses or the seat is released', async () => {
        const s = server();
        s.clock.freeze();
        const license = await floatingLicense(s, 2, 15, 7);
        const key = license.license_key;
        const base = await baseOf(s);
        const [a, b] = [machine('float-a'), machine('float-b')];

        // No seat yet: the machine is not licensed here.
        expectNotActivated(await status(base, key, a));

        const checkout = await floatingCall(base, 'checkout', { license_key: key, hardware_id: a });
        expect(checkout.status).toBe(201);
        const seat = floatingSeatAnswerSchema.parse(checkout.body);

        const answer = expectValid(await status(base, key, a, 'nonce-floating-check-1'));
        expect(answer).toMatchObject({
          valid: true,
          status: 'active',
          license_id: license.id,
          activation_id: null,
          floating_seat: { seat_id: seat.seat_id, held_until: seat.held_until, borrowed_until: null },
          nonce: 'nonce-floating-check-1',
        });
        // The lease is the machine's, marked with its seat, and ends when the seat would.
        const keys = leaseSigningKeysSchema.parse(
          await (
            await fetch(`${base}/api/v1/licensing/public-key`, { headers: { 'x-api-key': WEB_API_KEY } })
          ).json(),
        );
        const nowSeconds = Math.floor(s.clock.now().getTime() / 1000);
        const verified = await verifyLease(answer.lease, { keys, hardwareId: a, nowSeconds });
        expect(verified).toMatchObject({
          ok: true,
          claims: { sub: license.id, floating: { seat_id: seat.seat_id, borrowed_until: null } },
        });
        expectEndsWith(answer.lease_expires_at, seat.held_until);
        expect(
          await verifyCheckProof(answer.check ?? '', {
            keys,
            nonce: 'nonce-floating-check-1',
            hardwareId: a,
            licenseId: license.id,
            lease: answer.lease,
          }),
        ).toBe(true);
        // The other check route agrees; another machine of the license is still not licensed.
        expect(expectValid(await validate(base, key, a)).floating_seat?.seat_id).toBe(seat.seat_id);
        expectNotActivated(await status(base, key, b));

        // Heartbeats stop: one millisecond before the lease's end it is held, at its end it is not.
        s.clock.advance(15 * MINUTE_MS - 1);
        expectValid(await status(base, key, a));
        s.clock.advance(1);
        expectNotActivated(await status(base, key, a));
        expectNotActivated(await validate(base, key, a));

        // Checked out again and released on quit: not licensed from the release on.
        expect((await floatingCall(base, 'checkout', { license_key: key, hardware_id: a })).status).toBe(201);
        expectValid(await status(base, key, a));
        expect((await floatingCall(base, 'release', { license_key: key, hardware_id: a })).status).toBe(200);
        expectNotActivated(await status(base, key, a));
      });

      it('a borrowed seat is licensed until the borrow ends, and not after; returned early, at once not', async () => {
        const s = server();
        s.clock.freeze();
        const license = await floatingLicense(s, 1, 15, 5);
        const key = license.license_key;
        const base = await baseOf(s);
        const [trip, other] = [machine('trip'), machine('other')];

        const borrowed = await floatingCall(base, 'borrow', { license_key: key, hardware_id: trip, days: 3 });
        expect(borrowed.status).toBe(201);
        const seat = floatingSeatAnswerSchema.parse(borrowed.body);
        // Offline two days without a heartbeat, back online: still its seat.
        s.clock.advance(2 * DAY_MS);
        const answer = expectValid(await status(base, key, trip));
        expect(answer.floating_seat).toEqual({
          seat_id: seat.seat_id,
          held_until: seat.borrowed_until,
          borrowed_until: seat.borrowed_until,
        });
        expectEndsWith(answer.lease_expires_at, seat.borrowed_until);
        expect(answer.message).toMatch(/borrowed for offline use until/);
        // The borrow ends: no longer licensed, and its seat is another machine's to take.
        s.clock.advance(DAY_MS);
        expectNotActivated(await status(base, key, trip));
        expect((await floatingCall(base, 'checkout', { license_key: key, hardware_id: other })).status).toBe(
          201,
        );
        expectValid(await status(base, key, other));
        expect((await floatingCall(base, 'release', { license_key: key, hardware_id: other })).status).toBe(
          200,
        );

        // Borrowed again and returned early: not licensed from the return on.
        expect(
          (await floatingCall(base, 'borrow', { license_key: key, hardware_id: trip, days: 2 })).status,
        ).toBe(201);
        expectValid(await status(base, key, trip));
        expect((await floatingCall(base, 'return', { license_key: key, hardware_id: trip })).status).toBe(
          200,
        );
        expectNotActivated(await status(base, key, trip));
      });

      it('a seat left over on a plan no longer floating licenses nothing; a revoked license refuses its seat', async () => {
        const s = server();
        s.clock.freeze();
        const license = await floatingLicense(s, 2, 15, 0);
        const key = license.license_key;
        const base = await baseOf(s);
        const hw = machine('left-over');
        expect((await floatingCall(base, 'checkout', { license_key: key, hardware_id: hw })).status).toBe(
          201,
        );
        expectValid(await status(base, key, hw));

        await s.app.db
          .updateTable('licenses')
          .set({ status: 'revoked', revoked_reason: 'Chargeback' })
          .where('id', '=', license.id)
          .execute();
        const revoked = await status(base, key, hw);
        expect(revoked.status).toBe(403);
        expect(licenseRefusalSchema.parse(revoked.body)).toMatchObject({
          code: 'license_revoked',
          valid: false,
        });
        await s.app.db
          .updateTable('licenses')
          .set({ status: 'active', revoked_reason: null })
          .where('id', '=', license.id)
          .execute();
        expectValid(await status(base, key, hw));

        await s.app.db
          .updateTable('plans')
          .set({ floating_seats: null })
          .where('id', '=', license.plan_id)
          .execute();
        expectNotActivated(await status(base, key, hw));
      });
    },
    licenseSuiteOptions,
  );
});
