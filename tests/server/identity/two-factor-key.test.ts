import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import type { SecondFactorRequired } from '../../../src/shared/api/auth.js';
import { buildApp } from '../../../src/server/app.js';
import { createSecretCipher } from '../../../src/server/identity/auth/totp.js';
import { API_BASE_PATH } from '../../../src/shared/routes.js';
import { STRONG_PASSWORD, WEB_API_KEY } from '../../support/test-server.js';
import { describeIdentity } from './identity-server.js';
import { signInAsUser } from '../helpers/admin-helpers.js';
import { expectApiError, expectTokens } from '../helpers/auth-helpers.js';
import { enrolTotp, passwordStep, secondStep, toNextStep, totpCode } from '../helpers/two-factor-helpers.js';

/** One JSON call to an instance other than the test server's own. */
const post = (app: FastifyInstance, path: string, payload: object) =>
  app.inject({
    method: 'POST',
    url: `${API_BASE_PATH}${path}`,
    headers: { 'x-api-key': WEB_API_KEY },
    payload,
  });

describeIdentity('two-factor key: several instances, and secrets sealed under another key', (server) => {
  it('two instances without TWO_FACTOR_KEY: enrolled on one, the code step on the other signs in', async () => {
    const s = server();
    const user = await signInAsUser(s);
    const { secret } = await enrolTotp(s, user.token);
    // On PostgreSQL the second instance shares only the database, not a DATA_DIR volume, so no
    // generated key file either; on SQLite (one machine) instances share DATA_DIR with the file.
    const ownDataDir = s.dialect === 'postgres' ? await mkdtemp(join(tmpdir(), 'portal-second-')) : null;
    const second = await buildApp(ownDataDir ? { ...s.config, dataDir: ownDataDir } : s.config, {
      clock: s.clock,
      logger: false,
    });
    try {
      expect(s.config.twoFactorKey).toBeUndefined();
      const first = await post(second, '/auth/login/json', {
        email: user.email,
        password: STRONG_PASSWORD,
      });
      const { challenge } = first.json<SecondFactorRequired>();
      expect(challenge, first.body).toBeTruthy();
      toNextStep(s);
      expectTokens(
        await post(second, '/auth/login/second-factor', {
          challenge,
          code: totpCode(secret, s.clock.now()),
        }),
      );
    } finally {
      await second.close();
      if (ownDataDir) await rm(ownDataDir, { recursive: true, force: true });
    }
  });

  it('a secret sealed under another key: 409 naming TWO_FACTOR_KEY, never a 500; a recovery code still signs in', async () => {
    const s = server();
    const user = await signInAsUser(s);
    const { secret, recoveryCodes } = await enrolTotp(s, user.token);
    const otherKey = createSecretCipher(randomBytes(32).toString('base64url'));
    await s.app.db
      .updateTable('totp_authenticators')
      .set({ secret_ciphertext: otherKey.encrypt(secret) })
      .where('user_id', '=', user.id)
      .execute();

    toNextStep(s);
    const { challenge } = await passwordStep(s, user.email, STRONG_PASSWORD);
    const refused = expectApiError(
      await secondStep(s, { challenge, code: totpCode(secret, s.clock.now()) }),
      409,
      'two_factor_key_mismatch',
    );
    expect(refused.message).toContain('TWO_FACTOR_KEY');

    const again = await passwordStep(s, user.email, STRONG_PASSWORD);
    expectTokens(await secondStep(s, { challenge: again.challenge, recovery_code: recoveryCodes[0]! }));
  });
});
