import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt, decodeProtectedHeader, type JWTPayload, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/server/app.js';
import { ConfigError } from '../../../src/server/platform/config.js';
import {
  createLeaseSigner,
  LEASE_KEYS_FILE,
  type LeaseInput,
  rotateLeaseKeys,
} from '../../../src/server/licensing/leases/lease-signer.js';
import {
  type ActivationResult,
  type LeaseSigningKeys,
  leaseSigningKeysSchema,
  type LicenseStatusAnswer,
} from '../../../src/shared/api/licenses.js';
import {
  LEASE_AUDIENCE,
  LEASE_CLOCK_DRIFT_SECONDS,
  LEASE_MAX_LIFETIME_SECONDS,
  LEASE_TYPE,
  type LeaseClaims,
  verifyLease,
  type VerifyLeaseOptions,
} from '../../../src/shared/lease.js';
import { createTestClock } from '../../support/test-clock.js';
import { describeOnEveryDatabase, type TestServer, WEB_API_KEY } from '../../support/test-server.js';
import { activateBase, type SignedIn, signInAsUser } from '../helpers/admin-helpers.js';
import { expectApiError } from '../helpers/auth-helpers.js';

const DAY = 86_400;
const HARDWARE_ID = 'lease-machine-0001';
const ISSUER = 'desktop-ai-assistant-portal';

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** What a lease is expected to carry: the key's SHA-256, first 16 bytes, base64url. */
const fingerprintOf = (licenseKey: string) =>
  createHash('sha256').update(licenseKey).digest().subarray(0, 16).toString('base64url');

/** The same text with the character at `index` replaced by another base64url character. */
function alterCharacter(text: string, index: number): string {
  const at = index < 0 ? text.length + index : index;
  const replacement = text[at] === 'A' ? 'Q' : 'A';
  return `${text.slice(0, at)}${replacement}${text.slice(at + 1)}`;
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The lease with its payload changed and the original signature kept. */
function withPayload(lease: string, change: (claims: LeaseClaims) => LeaseClaims): string {
  const [header, , signature] = lease.split('.');
  return `${header}.${base64url(change(decodeJwt(lease) as unknown as LeaseClaims))}.${signature}`;
}

/** The lease's claims signed again with another key and header. */
async function resign(
  lease: string,
  key: KeyObject | Uint8Array,
  header: { alg: string; kid?: string },
): Promise<string> {
  return new SignJWT(decodeJwt(lease) as JWTPayload)
    .setProtectedHeader({ ...header, typ: LEASE_TYPE })
    .sign(key);
}

async function statusCheck(
  s: TestServer,
  licenseKey: string,
  hardwareId: string,
): Promise<LicenseStatusAnswer> {
  const response = await s.api({
    path: `/licensing/status?license_key=${encodeURIComponent(licenseKey)}&hardware_id=${hardwareId}`,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<LicenseStatusAnswer>();
}

async function servedKeys(s: TestServer): Promise<LeaseSigningKeys> {
  const response = await s.api({ path: '/licensing/public-key' });
  expect(response.statusCode, response.body).toBe(200);
  return leaseSigningKeysSchema.parse(response.json());
}

const publicJwkSet = (privateKey: KeyObject, kid: string): LeaseSigningKeys => {
  const { x } = privateKey.export({ format: 'jwk' }) as { x: string };
  return { keys: [{ kty: 'OKP', crv: 'Ed25519', x, kid, alg: 'EdDSA', use: 'sig' }] };
};

describeOnEveryDatabase('offline leases from license checks', (server) => {
  let owner: SignedIn;
  let activation: ActivationResult;
  let answer: LicenseStatusAnswer;
  let keys: LeaseSigningKeys;
  let claims: LeaseClaims;
  let checkedBetween: [number, number];

  beforeAll(async () => {
    const s = server();
    owner = await signInAsUser(s, 'lease');
    activation = await activateBase(s, owner, HARDWARE_ID);
    const before = seconds(s.clock.now());
    answer = await statusCheck(s, activation.license_key, HARDWARE_ID);
    checkedBetween = [before, seconds(s.clock.now())];
    keys = await servedKeys(s);
    claims = decodeJwt(answer.lease) as unknown as LeaseClaims;
  });

  const verify = (lease: string, options: Partial<VerifyLeaseOptions> = {}) =>
    verifyLease(lease, {
      keys,
      hardwareId: HARDWARE_ID,
      nowSeconds: seconds(server().clock.now()),
      ...options,
    });

  describe('GET /licensing/public-key', () => {
    it('serves the public verification key as a JWK set, never the private part, and only with the API key', async () => {
      const s = server();
      expectApiError(
        await s.api({ path: '/licensing/public-key', withoutApiKey: true }),
        401,
        'invalid_api_key',
      );
      const response = await s.api({ path: '/licensing/public-key' });
      expect(response.headers['cache-control']).toBe('public, max-age=3600');
      expect(keys.keys).toHaveLength(1);
      expect(keys.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
      expect(Object.keys(keys.keys[0] ?? {}).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x']);
      expect(response.body).not.toMatch(/"d"/);
    });
  });

  describe('a lease from a real status check', () => {
    it('verifies with the served key, on the machine it was issued for', async () => {
      const result = await verify(answer.lease);
      expect(result).toMatchObject({ ok: true, claims: { sub: activation.license_id, hwid: HARDWARE_ID } });
      if (!result.ok) return;
      expect(result.remainingSeconds).toBeGreaterThan(7 * DAY - 60);
      expect(result.remainingSeconds).toBeLessThanOrEqual(7 * DAY);
    });

    it('carries the license id, key fingerprint, machine, plan, features with limits, iat and exp = iat + 7 days', () => {
      expect(decodeProtectedHeader(answer.lease)).toEqual({
        alg: 'EdDSA',
        kid: keys.keys[0]?.kid,
        typ: LEASE_TYPE,
      });
      expect(claims).toMatchObject({
        sub: activation.license_id,
        kfp: fingerprintOf(activation.license_key),
        hwid: HARDWARE_ID,
        plan: { id: activation.plan_id, code: 'base', name: 'Base' },
        license_expires_at: null,
        iss: ISSUER,
        aud: LEASE_AUDIENCE,
      });
      expect(claims.kfp).toHaveLength(22);
      expect(JSON.stringify(claims)).not.toContain(activation.license_key);
      expect(claims.features.toSorted((a, b) => a.key.localeCompare(b.key))).toEqual([
        { key: 'ai_chat', kind: 'metered', limit: 100 },
        { key: 'document_analysis', kind: 'metered', limit: 10 },
      ]);
      expect(claims.iat).toBeGreaterThanOrEqual(checkedBetween[0]);
      expect(claims.iat).toBeLessThanOrEqual(checkedBetween[1]);
      expect(claims.exp - claims.iat).toBe(7 * DAY);
      expect(answer.lease_expires_at).toBe(new Date(claims.exp * 1000).toISOString());
      expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('the lease given with the activation verifies too, and a repeated check while it is fresh gets the same one', async () => {
      expect(await verify(activation.lease)).toMatchObject({ ok: true });
      const again = await statusCheck(server(), activation.license_key, HARDWARE_ID);
      expect(again.lease).toBe(answer.lease);
      expect(await verify(again.lease)).toMatchObject({ ok: true });
    });
  });

  describe('a lease that must not be trusted', () => {
    /** Where to alter the lease, given the lengths of its header and payload. */
    it.each([
      { part: 'the header (alg)', at: () => 3, problems: ['wrong_algorithm', 'malformed'] },
      {
        part: 'the header (kid)',
        at: (header: number) => header / 2,
        problems: ['unknown_key', 'malformed'],
      },
      { part: 'the payload (first character)', at: (header: number) => header + 1 },
      { part: 'the payload (middle)', at: (header: number, payload: number) => header + 1 + payload / 2 },
      {
        part: 'the signature (first character)',
        at: (header: number, payload: number) => header + payload + 2,
      },
      { part: 'the signature (middle)', at: (header: number, payload: number) => header + payload + 2 + 43 },
    ])(
      'altered in one character of $part → refused',
      async ({ at, problems = ['bad_signature', 'malformed'] }) => {
        const [header = '', payload = ''] = answer.lease.split('.');
        const altered = alterCharacter(answer.lease, Math.floor(at(header.length, payload.length)));
        expect(altered).not.toBe(answer.lease);
        expect(altered).toHaveLength(answer.lease.length);
        const result = await verify(altered);
        expect(result.ok).toBe(false);
        if (!result.ok) expect(problems).toContain(result.problem);
      },
    );

    it('altered only in the unused bits of the signature’s last character → malformed', async () => {
      const last = answer.lease.at(-1) ?? '';
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      // An Ed25519 signature is 86 characters: the last one holds 2 bits, so 16 spellings decode alike.
      const sameBytes = [...alphabet].filter(
        (character) => character !== last && alphabet.indexOf(character) >> 4 === alphabet.indexOf(last) >> 4,
      );
      expect(sameBytes).toHaveLength(15);
      for (const character of sameBytes)
        expect(await verify(`${answer.lease.slice(0, -1)}${character}`), character).toMatchObject({
          ok: false,
          problem: 'malformed',
        });
    });

    it('with a rewritten payload (another machine, a bigger plan, a later expiry) → bad_signature', async () => {
      const tampered = [
        withPayload(answer.lease, (c) => ({ ...c, hwid: 'attacker-machine-01' })),
        withPayload(answer.lease, (c) => ({ ...c, plan: { ...c.plan, code: 'team-yearly' } })),
        withPayload(answer.lease, (c) => ({ ...c, exp: c.exp + 365 * DAY })),
        withPayload(answer.lease, (c) => ({
          ...c,
          features: c.features.map((f) => ({ ...f, limit: null })),
        })),
      ];
      for (const lease of tampered)
        expect(await verify(lease, { hardwareId: decodeJwt(lease).hwid as string })).toMatchObject({
          ok: false,
          problem: 'bad_signature',
          message: 'The offline license has been altered; connect to the internet to check the license again',
        });
    });

    it.each(['', 'not-a-lease', 'a.b', 'a.b.c', `${'x'.repeat(10)}..`])(
      'that is not a JWS (%j) → malformed',
      async (lease) => {
        expect(await verify(lease)).toMatchObject({ ok: false, problem: 'malformed' });
      },
    );

    it('cut short → refused', async () => {
      const [header, payload] = answer.lease.split('.');
      expect(await verify(`${header}.${payload}`)).toMatchObject({ ok: false, problem: 'malformed' });
      expect(await verify(`${header}.${payload}.`)).toMatchObject({ ok: false });
    });

    it('checked on another machine → wrong_hardware', async () => {
      expect(await verify(answer.lease, { hardwareId: 'lease-machine-0002' })).toMatchObject({
        ok: false,
        problem: 'wrong_hardware',
        message: 'The offline license belongs to another machine',
      });
      expect(await verify(answer.lease, { hardwareId: `${HARDWARE_ID} ` })).toMatchObject({
        problem: 'wrong_hardware',
      });
    });

    it('past its expiry → expired; a second before, still valid', async () => {
      expect(await verify(answer.lease, { nowSeconds: claims.exp - 1 })).toMatchObject({
        ok: true,
        remainingSeconds: 1,
      });
      for (const nowSeconds of [claims.exp, claims.exp + 1, claims.exp + 30 * DAY])
        expect(await verify(answer.lease, { nowSeconds })).toMatchObject({ ok: false, problem: 'expired' });
    });

    it('signed by another Ed25519 key under the served kid → bad_signature; under its own kid → unknown_key', async () => {
      const { privateKey } = generateKeyPairSync('ed25519');
      const servedKid = keys.keys[0]?.kid ?? '';
      expect(
        await verify(await resign(answer.lease, privateKey, { alg: 'EdDSA', kid: servedKid })),
      ).toMatchObject({
        ok: false,
        problem: 'bad_signature',
      });
      const ownKid = await resign(answer.lease, privateKey, { alg: 'EdDSA', kid: 'attacker-key' });
      expect(await verify(ownKid)).toMatchObject({ ok: false, problem: 'unknown_key' });
      const noKid = await resign(answer.lease, privateKey, { alg: 'EdDSA' });
      expect(await verify(noKid)).toMatchObject({ ok: false, problem: 'unknown_key' });
      // The same forgery is accepted only by someone who trusts the forger's key.
      expect(await verify(ownKid, { keys: publicJwkSet(privateKey, 'attacker-key') })).toMatchObject({
        ok: true,
      });
    });

    it('with an algorithm other than EdDSA (HS256 keyed with the public key, none, ES256) → wrong_algorithm', async () => {
      const servedKid = keys.keys[0]?.kid ?? '';
      const publicX = new TextEncoder().encode(keys.keys[0]?.x ?? '');
      const hs256 = await resign(answer.lease, publicX, { alg: 'HS256', kid: servedKid });
      const unsecured = new UnsecuredJWT(decodeJwt(answer.lease)).encode();
      const [, payload] = answer.lease.split('.');
      const noneWithKid = `${base64url({ alg: 'none', kid: servedKid, typ: LEASE_TYPE })}.${payload}.`;
      const { privateKey: ecKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const es256 = await resign(answer.lease, ecKey, { alg: 'ES256', kid: servedKid });
      for (const lease of [hs256, unsecured, noneWithKid, es256])
        expect(await verify(lease), decodeProtectedHeader(lease).alg).toMatchObject({
          ok: false,
          problem: 'wrong_algorithm',
        });
    });

    it('with the clock set back before it was issued, beyond the allowed drift → clock_rolled_back; small drift is fine', async () => {
      expect(LEASE_CLOCK_DRIFT_SECONDS).toBe(300);
      for (const behind of [1, 60, 300])
        expect(await verify(answer.lease, { nowSeconds: claims.iat - behind }), `${behind}s`).toMatchObject({
          ok: true,
        });
      for (const behind of [301, DAY, 365 * DAY])
        expect(await verify(answer.lease, { nowSeconds: claims.iat - behind }), `${behind}s`).toMatchObject({
          ok: false,
          problem: 'clock_rolled_back',
          message: 'The system clock is earlier than when the license was last checked; correct the clock',
        });
      expect(await verify(answer.lease, { nowSeconds: claims.iat - 100, driftSeconds: 30 })).toMatchObject({
        problem: 'clock_rolled_back',
      });
    });

    it('living longer than maxLifetimeSeconds (exp - iat) → lifetime_too_long; up to the cap, or with no cap, accepted', async () => {
      expect(LEASE_MAX_LIFETIME_SECONDS).toBe(90 * DAY);
      expect(await verify(answer.lease, { maxLifetimeSeconds: 7 * DAY })).toMatchObject({ ok: true });
      expect(await verify(answer.lease, { maxLifetimeSeconds: 7 * DAY - 1 })).toMatchObject({
        ok: false,
        problem: 'lifetime_too_long',
        message:
          'The offline license claims a longer validity than any license server issues; connect to the internet to check the license again',
      });

      const { privateKey } = generateKeyPairSync('ed25519');
      const trusted = publicJwkSet(privateKey, 'long-lived');
      const lived = (lifetime: number) =>
        resign(
          withPayload(answer.lease, (c) => ({ ...c, exp: c.iat + lifetime })),
          privateKey,
          { alg: 'EdDSA', kid: 'long-lived' },
        );
      const options = { keys: trusted, maxLifetimeSeconds: LEASE_MAX_LIFETIME_SECONDS };
      expect(await verify(await lived(90 * DAY), options)).toMatchObject({ ok: true });
      for (const lifetime of [90 * DAY + 1, 365 * DAY])
        expect(await verify(await lived(lifetime), options), `${lifetime}s`).toMatchObject({
          ok: false,
          problem: 'lifetime_too_long',
        });
      expect(await verify(await lived(365 * DAY), { keys: trusted })).toMatchObject({ ok: true });
      // The signature is judged first: a long-lived forgery is still a forgery.
      const forged = withPayload(answer.lease, (c) => ({ ...c, exp: c.iat + 365 * DAY }));
      expect(await verify(forged, { maxLifetimeSeconds: LEASE_MAX_LIFETIME_SECONDS })).toMatchObject({
        problem: 'bad_signature',
      });
    });

    it('with the clock set back before the last check this machine saw → clock_rolled_back', async () => {
      const now = claims.iat + DAY;
      expect(await verify(answer.lease, { nowSeconds: now, lastSeenSeconds: now + 2 * DAY })).toMatchObject({
        ok: false,
        problem: 'clock_rolled_back',
      });
      expect(await verify(answer.lease, { nowSeconds: now, lastSeenSeconds: now + 120 })).toMatchObject({
        ok: true,
      });
      expect(await verify(answer.lease, { nowSeconds: now, lastSeenSeconds: now - DAY })).toMatchObject({
        ok: true,
      });
    });
  });

  it('a lease never outlives the license it vouches for', async () => {
    const s = server();
    const holder = await signInAsUser(s, 'short-lived');
    const hardwareId = 'short-lived-machine';
    const base = await activateBase(s, holder, hardwareId);
    const licenseEnd = new Date(s.clock.now().getTime() + 3600_500).toISOString();
    await s.app.db
      .updateTable('licenses')
      .set({ expires_at: licenseEnd })
      .where('id', '=', base.license_id)
      .execute();

    const checked = await statusCheck(s, base.license_key, hardwareId);
    const short = decodeJwt(checked.lease) as unknown as LeaseClaims;
    expect(short.exp).toBe(Math.floor(Date.parse(licenseEnd) / 1000));
    expect(short.exp - short.iat).toBeLessThanOrEqual(3601);
    expect(short.license_expires_at).toBe(licenseEnd);
    expect(checked.lease_expires_at).toBe(new Date(short.exp * 1000).toISOString());
    expect(await verify(checked.lease, { hardwareId, nowSeconds: short.exp })).toMatchObject({
      problem: 'expired',
    });
  });

  describe('the signing key', () => {
    it('is generated into DATA_DIR/keys on first start, privately, and is the key served', async () => {
      const s = server();
      const file = join(s.config.dataDir, 'keys', LEASE_KEYS_FILE);
      const stored = JSON.parse(await readFile(file, 'utf8')) as { active: string; keys: { kid: string }[] };
      expect(stored.keys.map((key) => key.kid)).toEqual([stored.active]);
      expect(keys.keys[0]?.kid).toBe(stored.active);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((await stat(join(s.config.dataDir, 'keys'))).mode & 0o777).toBe(0o700);
    });

    it('is reused when the server restarts on the same DATA_DIR', async () => {
      const s = server();
      const restarted = await buildApp(s.config, { clock: s.clock, logger: false });
      try {
        const response = await restarted.inject({
          url: '/api/v1/licensing/public-key',
          headers: { 'x-api-key': WEB_API_KEY },
        });
        expect(response.json()).toEqual(keys);
        const check = await restarted.inject({
          url: `/api/v1/licensing/status?license_key=${activation.license_key}&hardware_id=${HARDWARE_ID}`,
          headers: { 'x-api-key': WEB_API_KEY },
        });
        expect(check.statusCode, check.body).toBe(200);
        expect(await verify(check.json<LicenseStatusAnswer>().lease)).toMatchObject({ ok: true });
      } finally {
        await restarted.close();
      }
    });
  });
});

describe('lease signing keys', () => {
  const directories: string[] = [];
  afterAll(async () => {
    for (const directory of directories) await rm(directory, { recursive: true, force: true });
  });
  const dataDirectory = async () => {
    const directory = await mkdtemp(join(tmpdir(), 'portal-lease-keys-'));
    directories.push(directory);
    return directory;
  };

  const input: LeaseInput = {
    licenseId: 'license-1',
    licenseKey: '7KQ2M-AAAAA-BBBBB-CCCCC-DDDDD',
    hardwareId: HARDWARE_ID,
    plan: { id: 'plan-1', code: 'pro', name: 'Pro' },
    features: [{ key: 'ai_chat', kind: 'metered', limit: 5 }],
    licenseExpiresAt: null,
  };
  const signerOn = (dataDir: string, clock = createTestClock(), configuredKey?: string) =>
    createLeaseSigner({ dataDir, configuredKey, issuer: ISSUER, ttlSeconds: 600, clock });
  const verifyWith = async (keys: LeaseSigningKeys, lease: string) =>
    verifyLease(lease, { keys, hardwareId: HARDWARE_ID, nowSeconds: seconds(new Date()) });

  it('rotateLeaseKeys adds a new active key with a new kid and keeps serving the old one, so old leases still verify', async () => {
    const dataDir = await dataDirectory();
    const clock = createTestClock();
    const before = await signerOn(dataDir, clock);
    const oldKid = before.publicKeys().keys[0]?.kid;
    const { lease: oldLease } = await before.sign(input);

    clock.advance(1000);
    const rotation = await rotateLeaseKeys(dataDir, clock);
    expect(rotation.kid).not.toBe(oldKid);
    expect(rotation.retired).toEqual([oldKid]);

    const after = await signerOn(dataDir, clock);
    const served = after.publicKeys();
    expect(served.keys.map((key) => key.kid)).toEqual([rotation.kid, oldKid]);
    expect(served.keys[0]?.x).not.toBe(before.publicKeys().keys[0]?.x);
    expect(served.keys[1]).toEqual(before.publicKeys().keys[0]);

    const { lease: newLease } = await after.sign(input);
    expect(decodeProtectedHeader(newLease).kid).toBe(rotation.kid);
    expect(await verifyWith(served, newLease)).toMatchObject({ ok: true });
    expect(await verifyWith(served, oldLease)).toMatchObject({ ok: true });
    // A verifier that only knows the old key cannot accept leases of the new one.
    expect(await verifyWith(before.publicKeys(), newLease)).toMatchObject({
      ok: false,
      problem: 'unknown_key',
    });
  });

  it('keeps the three newest retired keys after repeated rotations', async () => {
    const dataDir = await dataDirectory();
    const clock = createTestClock();
    const first = (await signerOn(dataDir, clock)).publicKeys().keys[0]?.kid;
    const kids: string[] = [];
    for (let round = 0; round < 4; round += 1) {
      clock.advance(1000);
      kids.push((await rotateLeaseKeys(dataDir, clock)).kid);
    }
    const served = (await signerOn(dataDir, clock)).publicKeys().keys.map((key) => key.kid);
    expect(served).toEqual(kids.toReversed());
    expect(served).not.toContain(first);
  });

  it('a LEASE_SIGNING_KEY given as a private JWK or a PKCS#8 PEM is the key that signs and is served', async () => {
    for (const format of ['jwk', 'pem'] as const) {
      const dataDir = await dataDirectory();
      const { privateKey } = generateKeyPairSync('ed25519');
      const configured =
        format === 'jwk'
          ? JSON.stringify(privateKey.export({ format: 'jwk' }))
          : (privateKey.export({ format: 'pem', type: 'pkcs8' }) as string);
      const signer = await signerOn(dataDir, createTestClock(), configured);
      const served = signer.publicKeys();
      expect(served.keys, format).toHaveLength(1);
      expect(served.keys[0]?.x, format).toBe((privateKey.export({ format: 'jwk' }) as { x: string }).x);
      const { lease } = await signer.sign(input);
      const kid = decodeProtectedHeader(lease).kid ?? '';
      expect(await verifyWith(publicJwkSet(privateKey, kid), lease), format).toMatchObject({ ok: true });
      expect(existsSync(join(dataDir, 'keys', LEASE_KEYS_FILE)), format).toBe(false);
    }
  });

  it('a LEASE_SIGNING_KEY that is not an Ed25519 private key is a configuration error', async () => {
    const dataDir = await dataDirectory();
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
      format: 'pem',
      type: 'pkcs8',
    }) as string;
    const ed = generateKeyPairSync('ed25519');
    const publicOnly = JSON.stringify(ed.publicKey.export({ format: 'jwk' }));
    for (const configured of [rsa, publicOnly, '{"kty":"OKP"', 'not a key']) {
      const attempt = signerOn(dataDir, createTestClock(), configured);
      await expect(attempt).rejects.toBeInstanceOf(ConfigError);
      await expect(attempt).rejects.toThrow(/LEASE_SIGNING_KEY/);
    }
  });

  it('a damaged key file is a configuration error, not silently replaced by a new key', async () => {
    const dataDir = await dataDirectory();
    await signerOn(dataDir);
    const file = join(dataDir, 'keys', LEASE_KEYS_FILE);
    await writeFile(file, '{"active": "gone", "keys": []}');
    await expect(signerOn(dataDir)).rejects.toBeInstanceOf(ConfigError);
    expect(await readFile(file, 'utf8')).toBe('{"active": "gone", "keys": []}');
  });
});

const configuredKey = generateKeyPairSync('ed25519').privateKey;

describeOnEveryDatabase(
  'offline leases with LEASE_TTL_SECONDS=600 and a configured LEASE_SIGNING_KEY',
  (server) => {
    it('leases last 600 seconds, are signed with the configured key, and that key is served', async () => {
      const s = server();
      const holder = await signInAsUser(s, 'ttl');
      const base = await activateBase(s, holder, HARDWARE_ID);
      const checked = await statusCheck(s, base.license_key, HARDWARE_ID);
      const claims = decodeJwt(checked.lease) as unknown as LeaseClaims;
      expect(claims.exp - claims.iat).toBe(600);
      const activationClaims = decodeJwt(base.lease);
      expect((activationClaims.exp ?? 0) - (activationClaims.iat ?? 0)).toBe(600);

      const served = await servedKeys(s);
      const { x } = configuredKey.export({ format: 'jwk' }) as { x: string };
      expect(served.keys.map((key) => key.x)).toEqual([x]);
      const kid = served.keys[0]?.kid ?? '';
      expect(decodeProtectedHeader(checked.lease).kid).toBe(kid);
      const options = { hardwareId: HARDWARE_ID, nowSeconds: seconds(s.clock.now()) };
      expect(
        await verifyLease(checked.lease, { keys: publicJwkSet(configuredKey, kid), ...options }),
      ).toMatchObject({
        ok: true,
      });
      expect(await verifyLease(checked.lease, { keys: served, ...options })).toMatchObject({ ok: true });
      expect(
        await verifyLease(checked.lease, { keys: served, ...options, nowSeconds: claims.iat + 600 }),
      ).toMatchObject({ ok: false, problem: 'expired' });
      expect(existsSync(join(s.config.dataDir, 'keys', LEASE_KEYS_FILE))).toBe(false);
    });
  },
  {
    env: {
      LEASE_TTL_SECONDS: '600',
      LEASE_SIGNING_KEY: JSON.stringify(configuredKey.export({ format: 'jwk' })),
    },
  },
);
