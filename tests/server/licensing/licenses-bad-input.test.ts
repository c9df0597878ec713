import { webcrypto } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateLicenseKey } from '../../../src/shared/license-key.js';
import type { LicenseRow } from '../../../src/server/platform/db/tables.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import {
  activate,
  expectActivation,
  expectRefusal,
  giveLicense,
  licenseSuiteOptions,
  licensingTables,
  machine,
  type Member,
  member,
  mistypedKey,
  trackUsage,
} from '../helpers/license-helpers.js';

/** The key with the first two different neighbouring characters of a group swapped. */
function swapNeighbours(key: string): string {
  const at = [...key].findIndex(
    (c, i) => c !== '-' && key[i + 1] !== '-' && i + 1 < key.length && c !== key[i + 1],
  );
  return `${key.slice(0, at)}${key[at + 1]}${key[at]}${key.slice(at + 2)}`;
}

/** Runs the request and asserts that the licensing tables are exactly as before it. */
async function writesNothing<T>(s: TestServer, request: () => Promise<T>): Promise<T> {
  const before = await licensingTables(s);
  const result = await request();
  expect(await licensingTables(s)).toEqual(before);
  return result;
}

describeOnEveryDatabase(
  'licenses: bad input is refused clearly and writes nothing',
  (server) => {
    let owner: Member;
    let license: LicenseRow;
    let hw: string;

    beforeAll(async () => {
      const s = server();
      owner = await member(s);
      license = await giveLicense(s, owner, 'pro-monthly');
      hw = machine();
      expectActivation(await activate(s, owner.token, license.license_key, hw), 201);
    });

    describe('POST /licenses/activate', () => {
      it('an unknown key → 404 license_not_found', async () => {
        const s = server();
        const key = generateLicenseKey((bytes) => webcrypto.getRandomValues(bytes));
        const body = await writesNothing(s, async () =>
          expectRefusal(
            await activate(s, owner.token, key, machine()),
            404,
            'license_not_found',
            'not_found',
          ),
        );
        expect(body.message).toContain('No license has this key');
      });

      it.each([
        { name: 'one character changed', key: (real: string) => mistypedKey(real) },
        { name: 'two neighbours swapped', key: swapNeighbours },
        { name: 'a character missing', key: (real: string) => real.slice(0, -1) },
        { name: 'a foreign character', key: (real: string) => `${real.slice(0, -1)}U` },
      ])('a key with $name → 400 invalid_license_key naming the problem', async ({ key }) => {
        const s = server();
        const typed = key(license.license_key);
        expect(typed).not.toBe(license.license_key);
        const body = await writesNothing(s, async () =>
          expectRefusal(
            await activate(s, owner.token, typed, machine()),
            400,
            'invalid_license_key',
            'invalid_key',
          ),
        );
        expect(body.message).toContain('a key has 25 letters and digits in five groups of five');
      });

      it.each([
        { status: 'revoked' as const, code: 'license_revoked', words: 'This license was revoked' },
        { status: 'suspended' as const, code: 'license_suspended', words: 'This license is suspended' },
      ])('a $status license → 403 $code', async ({ status, code, words }) => {
        const s = server();
        const other = await giveLicense(s, owner, 'pro-monthly');
        await s.app.db.updateTable('licenses').set({ status }).where('id', '=', other.id).execute();
        const body = await writesNothing(s, async () =>
          expectRefusal(await activate(s, owner.token, other.license_key, machine()), 403, code, status),
        );
        expect(body.message).toContain(words);
      });

      it('an expired license → 403 license_expired', async () => {
        const s = server();
        const other = await giveLicense(s, owner, 'pro-monthly');
        await s.app.db
          .updateTable('licenses')
          .set({ expires_at: new Date(s.clock.now().getTime() - 60_000).toISOString() })
          .where('id', '=', other.id)
          .execute();
        const body = await writesNothing(s, async () =>
          expectRefusal(
            await activate(s, owner.token, other.license_key, machine()),
            403,
            'license_expired',
            'expired',
          ),
        );
        expect(body.message).toMatch(/This license expired on .+\. Renew it on the Purchase page\./);
      });

      it.each([
        { name: 'a too short hardware id', body: { hardware_id: 'abc' }, words: 'at least 8 characters' },
        {
          name: 'a hardware id with spaces',
          body: { hardware_id: 'my machine 1' },
          words: 'Hardware id may contain',
        },
        {
          name: 'a too long hardware id',
          body: { hardware_id: 'h'.repeat(129) },
          words: 'at most 128 characters',
        },
        { name: 'no hardware id', body: { hardware_id: undefined }, words: 'hardware_id' },
        { name: 'no key', body: { license_key: undefined }, words: 'license_key' },
        { name: 'an empty key', body: { license_key: '  ' }, words: 'Enter a license key' },
        { name: 'an unknown field', body: { seats: 99 }, words: 'seats' },
        { name: 'a too long device name', body: { device_name: 'd'.repeat(101) }, words: 'device_name' },
      ])('$name → 400 validation_error', async ({ body, words }) => {
        const s = server();
        const response = await writesNothing(s, () =>
          s.api({
            method: 'POST',
            path: '/licenses/activate',
            token: owner.token,
            body: { license_key: license.license_key, hardware_id: machine(), ...body },
          }),
        );
        const error = expectApiError(response, 400, 'validation_error');
        expect(error.message).toContain(words);
      });

      it('a body that is not JSON → 4xx JSON, nothing written', async () => {
        const s = server();
        const response = await writesNothing(s, () =>
          s.api({
            method: 'POST',
            path: '/licenses/activate',
            token: owner.token,
            body: '{"license_key": ',
            headers: { 'content-type': 'application/json' },
          }),
        );
        expectApiError(response, 400, 'invalid_json');
      });
    });

    describe('POST /licenses/{id}/deactivate', () => {
      it.each([
        { name: 'neither hardware_id nor activation_id', body: {} },
        {
          name: 'both hardware_id and activation_id',
          body: { hardware_id: 'hw-some-machine', activation_id: 'x' },
        },
        { name: 'a malformed hardware id', body: { hardware_id: 'no!' } },
      ])('$name → 400 validation_error', async ({ body }) => {
        const s = server();
        const response = await writesNothing(s, () =>
          s.api({ method: 'POST', path: `/licenses/${license.id}/deactivate`, token: owner.token, body }),
        );
        expectApiError(response, 400, 'validation_error');
      });

      it('a malformed license id → 400 validation_error', async () => {
        const s = server();
        const response = await writesNothing(s, () =>
          s.api({
            method: 'POST',
            path: '/licenses/42/deactivate',
            token: owner.token,
            body: { hardware_id: hw },
          }),
        );
        expect(expectApiError(response, 400, 'validation_error').message).toContain('Not a license id');
      });
    });

    describe('POST /licenses/{id}/usage', () => {
      it.each([
        { name: 'zero', amount: 0, words: 'usageAmount must be at least 1' },
        { name: 'negative', amount: -5, words: 'usageAmount must be at least 1' },
        { name: 'fractional', amount: 1.5, words: 'usageAmount must be a whole number' },
        { name: 'huge', amount: 1e12, words: 'usageAmount must be at most 1000000' },
        { name: 'just over the maximum', amount: 1_000_001, words: 'usageAmount must be at most 1000000' },
        { name: 'a string', amount: '1', words: 'usageAmount' },
        { name: 'null', amount: null, words: 'usageAmount' },
      ])('a $name usageAmount → 400 validation_error', async ({ amount, words }) => {
        const s = server();
        const response = await writesNothing(s, () =>
          trackUsage(s, owner.token, license.id, { featureId: 'ai_chat', usageAmount: amount }),
        );
        expect(expectApiError(response, 400, 'validation_error').message).toContain(words);
      });

      it('usageData over 4 KB → 400 validation_error; just under is accepted', async () => {
        const s = server();
        const big = { text: 'x'.repeat(4096) };
        const response = await writesNothing(s, () =>
          trackUsage(s, owner.token, license.id, { featureId: 'ai_chat', usageData: big }),
        );
        expect(expectApiError(response, 400, 'validation_error').message).toContain(
          'usageData must be at most 4096 bytes of JSON',
        );
        const fits = { text: 'x'.repeat(4096 - '{"text":""}'.length) };
        expect(
          (await trackUsage(s, owner.token, license.id, { featureId: 'ai_chat', usageData: fits }))
            .statusCode,
        ).toBe(200);
      });

      it.each([
        { name: 'usageData as an array', body: { featureId: 'ai_chat', usageData: [1, 2] } },
        { name: 'no featureId', body: { usageAmount: 1 } },
        { name: 'an empty featureId', body: { featureId: ' ' } },
        { name: 'an unknown field', body: { featureId: 'ai_chat', licenseId: 'x' } },
      ])('$name → 400 validation_error', async ({ body }) => {
        const s = server();
        const response = await writesNothing(s, () => trackUsage(s, owner.token, license.id, body));
        expectApiError(response, 400, 'validation_error');
      });

      it('a malformed license id → 400; an unknown one → 404', async () => {
        const s = server();
        await writesNothing(s, async () => {
          expectApiError(
            await trackUsage(s, owner.token, 'nope', { featureId: 'ai_chat' }),
            400,
            'validation_error',
          );
          expectApiError(
            await trackUsage(s, owner.token, webcrypto.randomUUID(), { featureId: 'ai_chat' }),
            404,
            'license_not_found',
          );
        });
      });
    });
  },
  licenseSuiteOptions,
);
