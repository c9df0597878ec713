import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/server/platform/http-error.js';
import { createPasswordHasher } from '../../../src/server/identity/auth/password-hasher.js';
import { createAdminUsersService } from '../../../src/server/admin/users-service.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { type SignedIn, signIn } from '../helpers/admin-helpers.js';
import { expectApiError } from '../helpers/auth-helpers.js';

/** Exactly these accounts are active administrators: every other one in the suite's database is demoted. */
async function onlyAdmins(s: TestServer, count: number): Promise<SignedIn[]> {
  const admins: SignedIn[] = [];
  for (let index = 0; index < count; index += 1) admins.push(await signIn(s, 'admin', `roster${index}`));
  await s.app.db
    .updateTable('users')
    .set({ role: 'user' })
    .where('role', '=', 'admin')
    .where(
      'id',
      'not in',
      admins.map((admin) => admin.id),
    )
    .execute();
  return admins;
}

const activeAdmins = async (s: TestServer) =>
  (
    await s.app.db
      .selectFrom('users')
      .select('id')
      .where('role', '=', 'admin')
      .where('status', '=', 'active')
      .execute()
  ).map((row) => row.id);

const ROUNDS = 8;

describeOnEveryDatabase('the last administrator', (server) => {
  const users = () => {
    const s = server();
    return createAdminUsersService({
      db: s.app.db,
      clock: s.clock,
      passwords: createPasswordHasher(s.config.passwordHashing),
      mailer: s.app.mailer,
    });
  };
  const demote = (s: TestServer, actor: SignedIn, target: SignedIn) =>
    s.api({ method: 'PUT', path: `/admin/users/${target.id}`, token: actor.token, body: { role: 'user' } });

  it('the only administrator can neither demote, disable nor delete themselves', async () => {
    const s = server();
    const [only] = (await onlyAdmins(s, 1)) as [SignedIn];
    expectApiError(await demote(s, only, only), 400, 'own_account');
    expectApiError(
      await s.api({
        method: 'PUT',
        path: `/admin/users/${only.id}`,
        token: only.token,
        body: { status: 'disabled' },
      }),
      400,
      'own_account',
    );
    expectApiError(
      await s.api({ method: 'DELETE', path: `/admin/users/${only.id}`, token: only.token }),
      400,
      'own_account',
    );
    expect(await activeAdmins(s)).toEqual([only.id]);
  });

  it('of two administrators, one demotes the other; the one left cannot be removed', async () => {
    const s = server();
    const [first, second] = (await onlyAdmins(s, 2)) as [SignedIn, SignedIn];
    expect((await demote(s, first, second)).statusCode).toBe(200);
    expect(await activeAdmins(s)).toEqual([first.id]);
    // The demoted one's token ended with the role change.
    expectApiError(await demote(s, second, first), 401, 'invalid_token');
    expect(await activeAdmins(s)).toEqual([first.id]);
  });

  describe.each([
    { change: 'demote', body: { role: 'user' as const } },
    { change: 'disable', body: { status: 'disabled' as const } },
  ])('the rule itself, below the API ($change)', ({ body }) => {
    it('refuses the change when the target is the last active administrator → 409 last_admin', async () => {
      const s = server();
      const [only] = (await onlyAdmins(s, 1)) as [SignedIn];
      // An actor whose own role was just taken: only the rule stands between the system and no administrator.
      const formerAdmin = await signIn(s, 'user', 'former');
      const refused = await users()
        .update({ id: formerAdmin.id, meta: null }, only.id, body)
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(HttpError);
      expect(refused).toMatchObject({ statusCode: 409, code: 'last_admin' });
      expect(await activeAdmins(s)).toEqual([only.id]);
    });
  });

  it('refuses deleting the last active administrator below the API → 409 last_admin', async () => {
    const s = server();
    const [only] = (await onlyAdmins(s, 1)) as [SignedIn];
    const formerAdmin = await signIn(s, 'user', 'former-delete');
    await expect(users().remove({ id: formerAdmin.id, meta: null }, only.id)).rejects.toMatchObject({
      statusCode: 409,
      code: 'last_admin',
    });
    expect(await activeAdmins(s)).toEqual([only.id]);
  });

  it('refuses a change by an actor who is no longer an administrator → 403', async () => {
    const s = server();
    const [first, second] = (await onlyAdmins(s, 2)) as [SignedIn, SignedIn];
    const formerAdmin = await signIn(s, 'user', 'former-actor');
    await expect(
      users().update({ id: formerAdmin.id, meta: null }, second.id, { role: 'user' }),
    ).rejects.toMatchObject({ statusCode: 403, code: 'admin_required' });
    expect((await activeAdmins(s)).sort()).toEqual([first.id, second.id].sort());
  });

  it(`two administrators demoting each other at the same moment: exactly one succeeds (${ROUNDS} rounds)`, async () => {
    const s = server();
    for (let round = 0; round < ROUNDS; round += 1) {
      const [first, second] = (await onlyAdmins(s, 2)) as [SignedIn, SignedIn];
      const outcomes = await Promise.allSettled([
        users().update({ id: first.id, meta: null }, second.id, { role: 'user' }),
        users().update({ id: second.id, meta: null }, first.id, { role: 'user' }),
      ]);
      const fulfilled = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      const rejected = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
      expect(fulfilled, `round ${round}`).toHaveLength(1);
      expect(rejected).toEqual([expect.objectContaining({ statusCode: 409, code: 'last_admin' })]);
      expect(await activeAdmins(s)).toHaveLength(1);
      const events = await s.app.db
        .selectFrom('security_events')
        .select('user_id')
        .where('type', '=', 'role_changed')
        .where('user_id', 'in', [first.id, second.id])
        .execute();
      expect(events).toHaveLength(1);
    }
  });

  it('the same race over HTTP: one demotion wins, the other is refused, one administrator remains', async () => {
    const s = server();
    for (let round = 0; round < ROUNDS; round += 1) {
      const [first, second] = (await onlyAdmins(s, 2)) as [SignedIn, SignedIn];
      const responses = await Promise.all([demote(s, first, second), demote(s, second, first)]);
      const statuses = responses.map((response) => response.statusCode).sort();
      expect(statuses[0], `round ${round}: ${responses.map((r) => r.body).join(' | ')}`).toBe(200);
      // The loser is refused by the rule (409) or, if the winner committed before it was
      // authenticated, because its own token ended with its role (401).
      expect([401, 409]).toContain(statuses[1]);
      expect(await activeAdmins(s)).toHaveLength(1);
    }
  });

  it('disabling and deleting race the same way: one administrator always remains', async () => {
    const s = server();
    for (let round = 0; round < ROUNDS; round += 1) {
      const [first, second] = (await onlyAdmins(s, 2)) as [SignedIn, SignedIn];
      const outcomes = await Promise.allSettled([
        users().update({ id: first.id, meta: null }, second.id, { status: 'disabled' }),
        users().remove({ id: second.id, meta: null }, first.id),
      ]);
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      expect(await activeAdmins(s)).toHaveLength(1);
    }
  });
});
