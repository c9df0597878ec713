import { expect, it } from 'vitest';
import { DESKTOP_API_KEY } from '../../../src/main/desktop-config.js';
import { leaseSigningKeysSchema, type LicenseStatusAnswer } from '../../../src/shared/api/licenses.js';
import { verifyCheckProof } from '../../../src/shared/lease.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { activatedMachine, licenseSuiteOptions } from '../helpers/license-helpers.js';

const NONCE_A = 'nonce-aaaaaaaaaaaaaaaaaaaa';
const NONCE_B = 'nonce-bbbbbbbbbbbbbbbbbbbb';

const statusWith = (s: TestServer, key: string, hardwareId: string, nonce?: string) =>
  s.api({
    path: `/licensing/status?${new URLSearchParams({
      license_key: key,
      hardware_id: hardwareId,
      ...(nonce ? { nonce } : {}),
    })}`,
  });

const keysOf = async (s: TestServer) =>
  leaseSigningKeysSchema.parse(
    (await s.api({ path: '/licensing/public-key', headers: { 'x-api-key': DESKTOP_API_KEY } })).json(),
  );

describeOnEveryDatabase(
  'license checks carry their nonce, signed',
  (server) => {
    it('the answer echoes the nonce and signs it with the lease; another nonce gets another proof from the same kept answer', async () => {
      const s = server();
      const { license, hw } = await activatedMachine(s);
      const keys = await keysOf(s);
      const first = await statusWith(s, license.license_key, hw, NONCE_A);
      expect(first.statusCode).toBe(200);
      const a = first.json<LicenseStatusAnswer>();
      expect(a.nonce).toBe(NONCE_A);
      const proofOf = (answer: LicenseStatusAnswer, nonce: string) =>
        verifyCheckProof(answer.check ?? '', {
          keys,
          nonce,
          hardwareId: hw,
          licenseId: license.id,
          lease: answer.lease,
        });
      expect(await proofOf(a, NONCE_A)).toBe(true);
      expect(await proofOf(a, NONCE_B)).toBe(false);

      const b = (await statusWith(s, license.license_key, hw, NONCE_B)).json<LicenseStatusAnswer>();
      // The kept answer (same lease), with this check's nonce signed.
      expect(b.lease).toBe(a.lease);
      expect(b.nonce).toBe(NONCE_B);
      expect(await proofOf(b, NONCE_B)).toBe(true);
      expect(await proofOf({ ...b, check: a.check }, NONCE_B)).toBe(false);
      // Bound to this machine and to this lease.
      expect(
        await verifyCheckProof(b.check ?? '', {
          keys,
          nonce: NONCE_B,
          hardwareId: 'hw-someone-else',
          licenseId: license.id,
          lease: b.lease,
        }),
      ).toBe(false);

      // POST /licenses/validate takes it in the body.
      const validated = await s.api({
        method: 'POST',
        path: '/licenses/validate',
        body: { license_key: license.license_key, hardware_id: hw, nonce: NONCE_A },
      });
      expect(await proofOf(validated.json<LicenseStatusAnswer>(), NONCE_A)).toBe(true);
    });

    it('an older client sending no nonce gets today’s answer, with neither nonce nor proof', async () => {
      const s = server();
      const { license, hw } = await activatedMachine(s);
      const answer = (await statusWith(s, license.license_key, hw)).json<LicenseStatusAnswer>();
      expect(answer.valid).toBe(true);
      expect('nonce' in answer).toBe(false);
      expect('check' in answer).toBe(false);
    });

    it('a malformed nonce is a 400 validation error, never an answer', async () => {
      const s = server();
      const { license, hw } = await activatedMachine(s);
      for (const nonce of [
        'short',
        'x'.repeat(129),
        'has spaces in it and is long',
        'ünïcödé-ünïcödé-ünïcödé',
      ]) {
        const refused = await statusWith(s, license.license_key, hw, nonce);
        expect(refused.statusCode, nonce).toBe(400);
        expect(refused.json<{ code: string }>().code).toBe('validation_error');
      }
    });
  },
  licenseSuiteOptions,
);
