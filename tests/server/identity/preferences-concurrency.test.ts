import { expect, it } from 'vitest';
import { preferencesSchema } from '../../../src/shared/api/users.js';
import { WEB_API_KEY } from '../../support/test-server.js';
import { describeIdentity } from './identity-server.js';

describeIdentity('PUT /users/me/preferences from several devices at once', (server) => {
  it('keeps every change: none overwrites another', async () => {
    const s = server();
    const { email, password } = await s.createVerifiedUser();
    const { access_token: token } = await s.login(email, password);
    const base = await s.listen();
    const save = (changes: object) =>
      fetch(`${base}/api/v1/users/me/preferences`, {
        method: 'PUT',
        headers: {
          'content-type': 'application/json',
          'x-api-key': WEB_API_KEY,
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify(changes),
      });

    // Each request changes a different setting away from its default, all sent together.
    const responses = await Promise.all([
      save({ theme: 'dark' }),
      save({ language: 'pt-BR' }),
      save({ notifications: { product_updates: false } }),
      save({ notifications: { security_alerts: false } }),
      save({ notifications: { billing: false } }),
    ]);
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);

    const profile = (await (
      await fetch(`${base}/api/v1/users/me`, {
        headers: { 'x-api-key': WEB_API_KEY, authorization: `Bearer ${token}` },
      })
    ).json()) as { preferences: unknown };
    expect(preferencesSchema.parse(profile.preferences)).toEqual({
      theme: 'dark',
      language: 'pt-BR',
      notifications: { product_updates: false, security_alerts: false, billing: false },
    });
  });
});
