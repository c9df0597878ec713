import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { DESKTOP_API_KEY } from '../../src/main/desktop-config.js';
import { createLicenseStateFile } from '../../src/main/license-state.js';
import { createLicenseChecker, replayedAnswerMessage } from '../../src/main/licensing.js';
import { createLicensingApi, type FetchLike } from '../../src/main/licensing-api.js';
import { type LeaseSigningKeys, leaseSigningKeysSchema } from '../../src/shared/api/licenses.js';
import { describeOnEveryDatabase, type TestServer } from '../support/test-server.js';
import {
  activate,
  expectActivation,
  giveLicense,
  licenseSuiteOptions,
  machine,
  member,
} from '../server/helpers/license-helpers.js';

/**
 * The network between the app and the real server, with someone on it: it records every answer
 * and, once told to, sends back the one it captured instead of asking the server (optionally
 * rewriting the echoed nonce to the one the app just sent). Faked only at this HTTP boundary.
 */
function interceptor() {
  const captured: string[] = [];
  let replay: 'off' | 'as-captured' | 'nonce-rewritten' = 'off';
  const fetchImpl: FetchLike = async (input, init) => {
    if (replay !== 'off' && captured[0] !== undefined) {
      let body = captured[0];
      if (replay === 'nonce-rewritten') {
        const sent = new URL(input).searchParams.get('nonce') ?? '';
        body = JSON.stringify({ ...(JSON.parse(body) as object), nonce: sent });
      }
      return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
    }
    const response = await fetch(input, init);
    const text = await response.text();
    if (response.ok) captured.push(text);
    return new Response(text, { status: response.status, headers: response.headers });
  };
  return {
    fetch: fetchImpl,
    captured,
    replay: (mode: typeof replay) => {
      replay = mode;
    },
  };
}

/** Each suite's server listens once, on its own port. */
const addresses = new WeakMap<TestServer['app'], string>();
async function listening(s: TestServer): Promise<string> {
  const known = addresses.get(s.app) ?? (await s.listen());
  addresses.set(s.app, known);
  return known;
}

async function desktop(s: TestServer, trusted: boolean) {
  const base = await listening(s);
  const owner = await member(s);
  const admin = await member(s, 'admin');
  const license = await giveLicense(s, owner, 'pro-monthly');
  const hardwareId = machine('desk');
  expectActivation(await activate(s, owner.token, license.license_key, hardwareId), 201);
  const keys: LeaseSigningKeys = leaseSigningKeysSchema.parse(
    (await s.api({ path: '/licensing/public-key', headers: { 'x-api-key': DESKTOP_API_KEY } })).json(),
  );
  const network = interceptor();
  const dir = await mkdtemp(join(tmpdir(), 'check-replay-'));
  const state = createLicenseStateFile(join(dir, 'license-state.json'), base);
  await state.update((current) => ({ ...current, license_key: license.license_key }));
  const checker = createLicenseChecker({
    api: createLicensingApi({
      serverUrl: base,
      apiKey: DESKTOP_API_KEY,
      fetch: network.fetch,
      timeoutMs: 5000,
    }),
    state,
    hardwareId: () => hardwareId,
    trustedKeys: trusted ? keys : undefined,
    now: () => s.clock.now(),
  });
  const revoke = async () => {
    const revoked = await s.api({
      method: 'POST',
      path: `/admin/licenses/${license.id}/revoke?reason=Chargeback`,
      token: admin.token,
    });
    expect(revoked.statusCode).toBe(200);
  };
  return { checker, network, state, revoke, license };
}

describeOnEveryDatabase(
  'desktop main: online checks cannot be replayed (real main-process code against the real server)',
  (server) => {
    it('a replayed pre-revocation answer is refused by the app, with its nonce echoed as captured or rewritten', async () => {
      const s = server();
      const { checker, network, revoke, license, state } = await desktop(s, true);
      // Online and genuine: the answer echoes this check's nonce and its proof verifies.
      expect(await checker.check()).toMatchObject({ valid: true, status: 'active', license_id: license.id });
      const captured = JSON.parse(network.captured[0] ?? '{}') as { nonce?: string; check?: string };
      expect(captured.nonce).toMatch(/^[A-Za-z0-9_-]{24}$/);
      expect(captured.check?.split('.')).toHaveLength(3);
      const leaseBefore = (await state.read()).lease;

      await revoke();
      // The server now refuses the license; fed the answer captured before, the app refuses it too.
      network.replay('as-captured');
      expect(await checker.check()).toEqual({
        valid: false,
        status: 'error',
        message: replayedAnswerMessage,
      });
      // The echo rewritten to this check's nonce: the signed proof still names the old one.
      network.replay('nonce-rewritten');
      expect(await checker.check()).toEqual({
        valid: false,
        status: 'error',
        message: replayedAnswerMessage,
      });
      // Nothing of the replayed answer was kept.
      expect((await state.read()).lease).toEqual(leaseBefore);

      // Back on the real server: the revocation is heard, and the kept lease goes.
      network.replay('off');
      expect(await checker.check()).toMatchObject({ valid: false, status: 'revoked' });
      expect((await state.read()).lease).toBeNull();
    });

    it('each check sends a fresh nonce; without pinned keys the echo alone still refuses a replay', async () => {
      const s = server();
      const { checker, network, revoke } = await desktop(s, false);
      expect(await checker.check()).toMatchObject({ valid: true });
      expect(await checker.check()).toMatchObject({ valid: true });
      const nonces = network.captured.map((text) => (JSON.parse(text) as { nonce: string }).nonce);
      expect(new Set(nonces).size).toBe(2);
      await revoke();
      network.replay('as-captured');
      expect(await checker.check()).toEqual({
        valid: false,
        status: 'error',
        message: replayedAnswerMessage,
      });
    });
  },
  licenseSuiteOptions,
);
