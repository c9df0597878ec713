import { expect, it } from 'vitest';
import type { AccountDeletion } from '../../../src/shared/api/account-data.js';
import type { Invoice } from '../../../src/shared/api/invoices.js';
import { STEP_UP_WINDOW_SECONDS } from '../../../src/shared/constants.js';
import { describeOnEveryDatabase, STRONG_PASSWORD, type TestServer } from '../../support/test-server.js';
import { type SignedIn, signInAgain, signInAsAdmin, signInAsUser } from '../helpers/admin-helpers.js';
import { expectApiError, getMe, loginJson, securityEvents } from '../helpers/auth-helpers.js';
import { indianDetails, putBillingDetails } from '../helpers/invoice-helpers.js';
import { createOrganisation } from '../helpers/organisation-helpers.js';
import { subscribe } from '../helpers/subscription-helpers.js';

const DAY = 24 * 60 * 60 * 1000;
const GRACE = 14 * DAY;

const askToDelete = (s: TestServer, token: string, body: unknown = { confirm: true }) =>
  s.api({ method: 'POST', path: '/users/me/deletion', token, body });
const cancelDeletion = (s: TestServer, token: string) =>
  s.api({ method: 'DELETE', path: '/users/me/deletion', token });
const eraseByAdmin = (s: TestServer, admin: SignedIn, id: string, body: unknown) =>
  s.api({ method: 'POST', path: `/admin/users/${id}/erase`, token: admin.token, body });

const userRow = (s: TestServer, id: string) =>
  s.app.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** A customer with a subscription (a license, an invoice issued to their billing details). */
async function payingCustomer(
  s: TestServer,
): Promise<SignedIn & { licenseId: string; subscriptionId: string }> {
  const user = await signInAsUser(s, 'leaver');
  expect((await putBillingDetails(s, user.token, indianDetails())).statusCode).toBe(200);
  const bought = await subscribe(s, user);
  return { ...user, licenseId: bought.license.license_id, subscriptionId: bought.subscription.id };
}

describeOnEveryDatabase('a customer deleting their account', (server) => {
  it('waits out the grace period, can be cancelled meanwhile, then erases the account but keeps its invoices', async () => {
    const s = server();
    s.clock.freeze();
    const admin = await signInAsAdmin(s);
    const user = await payingCustomer(s);

    expectApiError(await askToDelete(s, user.token, {}), 400, 'validation_error');
    expectApiError(await askToDelete(s, user.token, { confirm: false }), 400, 'validation_error');
    const asked = await askToDelete(s, user.token);
    expect(asked.statusCode, asked.body).toBe(202);
    const due = asked.json<AccountDeletion>();
    expect(due.grace_days).toBe(14);
    expect(Date.parse(due.deletion_due_at!)).toBe(s.clock.now().getTime() + GRACE);
    // Asking again changes nothing.
    expect((await askToDelete(s, user.token)).json<AccountDeletion>()).toEqual(due);

    // Signing in during the grace period works, and its answer and the profile say what is coming.
    s.clock.advance(3 * DAY);
    const signedIn = await loginJson(s, user.email, STRONG_PASSWORD);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json()).toMatchObject({ user: { deletion_due_at: due.deletion_due_at } });
    await signInAgain(s, user).then((again) => (user.token = again.token));
    expect((await getMe(s, user.token)).json()).toMatchObject({ deletion_due_at: due.deletion_due_at });
    const cancelled = await cancelDeletion(s, user.token);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toEqual({ deletion_due_at: null, grace_days: 14 });
    expect((await getMe(s, user.token)).json()).not.toHaveProperty('deletion_due_at');
    expectApiError(await cancelDeletion(s, user.token), 409, 'no_deletion_pending');
    s.clock.advance(GRACE);
    await s.app.scheduler.runOnce();
    expect((await userRow(s, user.id)).erased_at).toBeNull();

    // A failed sign-in of each, counted by address.
    for (const email of [user.email, admin.email])
      expectApiError(await loginJson(s, email, 'not the password'), 401, 'invalid_credentials');
    // Deleted again: erased once the new grace period is over, not a second before.
    await signInAgain(s, user).then((again) => (user.token = again.token));
    expect((await askToDelete(s, user.token)).statusCode).toBe(202);
    s.clock.advance(GRACE - 1000);
    await s.app.scheduler.runOnce();
    expect((await userRow(s, user.id)).erased_at).toBeNull();
    s.clock.advance(1000);
    await s.app.scheduler.runOnce();

    const erased = await userRow(s, user.id);
    expect(erased).toMatchObject({
      email: `erased-${user.id}@erased.invalid`,
      full_name: null,
      status: 'disabled',
      deletion_due_at: null,
    });
    expect(erased.erased_at).not.toBeNull();
    // Its failed sign-ins, counted by address, go too; others' stay.
    const throttles = await s.app.db.selectFrom('login_throttles').select('key').execute();
    expect(throttles.filter((row) => row.key.startsWith(`${user.email}|`))).toEqual([]);
    expect(throttles.filter((row) => row.key.startsWith(`${admin.email}|`)).length).toBeGreaterThan(0);
    expectApiError(await loginJson(s, user.email, STRONG_PASSWORD), 401, 'invalid_credentials');
    expectApiError(await getMe(s, user.token), 401, 'invalid_token');

    // Its license ended, its subscription with it; its billing address is gone.
    const license = await s.app.db
      .selectFrom('licenses')
      .selectAll()
      .where('id', '=', user.licenseId)
      .executeTakeFirstOrThrow();
    expect(license).toMatchObject({ status: 'revoked', revoked_reason: 'account_erased' });
    const subscription = await s.app.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('id', '=', user.subscriptionId)
      .executeTakeFirstOrThrow();
    expect(subscription.status).toBe('cancelled');
    expect(
      await s.app.db.selectFrom('billing_details').selectAll().where('user_id', '=', user.id).execute(),
    ).toEqual([]);

    // The invoice keeps the buyer it was issued to; the administrators still see it and the payment.
    const admin2 = await signInAgain(s, admin);
    const invoices = await s.api({ path: `/admin/users/${user.id}/invoices`, token: admin2.token });
    expect(invoices.statusCode, invoices.body).toBe(200);
    const [invoice] = invoices.json<{ data: Invoice[] }>().data;
    expect(invoice!.buyer).toMatchObject({ name: 'Asha Rao Consulting' });
    expect(JSON.stringify(invoice!.buyer)).toContain('Kolkata');
    const payments = await s.api({ path: '/payments/admin/payments?perPage=100', token: admin2.token });
    expect(payments.statusCode, payments.body).toBe(200);
    const paid = payments
      .json<{ data: { user_id: string | null; user_email: string | null; status: string }[] }>()
      .data.filter((payment) => payment.user_id === user.id);
    expect(paid.map((payment) => payment.status)).toContain('paid');
    // The account names no one any more; the invoice still names the buyer it was issued to.
    for (const payment of paid) expect(payment.user_email).toBe(`erased-${user.id}@erased.invalid`);

    // The log keeps the account's id, with no address or e-mail.
    const events = await s.app.db
      .selectFrom('security_events')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['account_deletion_requested', 'account_deletion_cancelled', 'account_erased']),
    );
    for (const event of events) {
      expect(event.ip).toBeNull();
      expect(JSON.stringify(event)).not.toContain(user.email);
    }
  });

  it('refuses an organisation’s owner until the ownership is transferred, and a stale session', async () => {
    const s = server();
    s.clock.freeze();
    const owner = await signInAsUser(s, 'owner');
    await createOrganisation(s, owner);
    const refused = expectApiError(await askToDelete(s, owner.token), 409, 'organisation_owner');
    expect(refused.message).toContain('Acme Research');
    expect((await userRow(s, owner.id)).deletion_due_at).toBeNull();

    s.clock.advance(STEP_UP_WINDOW_SECONDS * 1000 + 1000);
    const user = await signInAsUser(s);
    s.clock.advance(STEP_UP_WINDOW_SECONDS * 1000 + 1000);
    expectApiError(await askToDelete(s, user.token), 403, 'step_up_required');
    expectApiError(
      await s.api({ method: 'POST', path: '/users/me/deletion', body: { confirm: true } }),
      401,
      'not_authenticated',
    );
    const admin = await signInAsAdmin(s);
    expectApiError(await askToDelete(s, admin.token), 409, 'administrator_account');
  });

  it('settles a cancellation racing the erasure: cancelled and kept, or erased and the cancellation refused', async () => {
    const s = server();
    s.clock.freeze();
    const outcomes = new Set<string>();
    for (let round = 0; round < 4; round += 1) {
      const user = await signInAsUser(s, `racer${round}`);
      expect((await askToDelete(s, user.token)).statusCode).toBe(202);
      s.clock.advance(GRACE);
      const again = await signInAgain(s, user);
      const [cancel] = await Promise.all(
        round % 2 === 0
          ? [cancelDeletion(s, again.token), s.app.scheduler.runOnce()]
          : [s.app.scheduler.runOnce().then(() => cancelDeletion(s, again.token))],
      );
      const row = await userRow(s, user.id);
      if (cancel.statusCode === 200) {
        expect(row.erased_at).toBeNull();
        expect(row.deletion_due_at).toBeNull();
        outcomes.add('cancelled');
      } else {
        expect(cancel.statusCode).toBe(401);
        expect(row.erased_at).not.toBeNull();
        outcomes.add('erased');
      }
      // Whatever won, a later run changes nothing more.
      await s.app.scheduler.runOnce();
      expect((await userRow(s, user.id)).erased_at).toBe(row.erased_at);
    }
    expect(outcomes.has('erased')).toBe(true);
  });
});

describeOnEveryDatabase('an administrator erasing an account', (server) => {
  it('erases at once with a reason, recorded; refuses bad input, its own account and an administrator', async () => {
    const s = server();
    s.clock.freeze();
    const admin = await signInAsAdmin(s);
    const user = await payingCustomer(s);
    expectApiError(await eraseByAdmin(s, admin, user.id, {}), 400, 'validation_error');
    expectApiError(await eraseByAdmin(s, admin, user.id, { reason: ' x ' }), 400, 'validation_error');
    expectApiError(
      await eraseByAdmin(s, admin, user.id, { reason: 'ok', extra: 1 }),
      400,
      'validation_error',
    );
    expectApiError(await eraseByAdmin(s, admin, admin.id, { reason: 'myself please' }), 409, 'own_account');
    const other = await signInAsAdmin(s);
    expectApiError(
      await eraseByAdmin(s, admin, other.id, { reason: 'an admin' }),
      409,
      'administrator_account',
    );
    expectApiError(await eraseByAdmin(s, admin, 'no-such-user', { reason: 'nobody' }), 404, 'user_not_found');
    expectApiError(
      await s.api({
        method: 'POST',
        path: `/admin/users/${admin.id}/erase`,
        token: user.token,
        body: { reason: 'nope' },
      }),
      403,
      'admin_required',
    );

    const erased = await eraseByAdmin(s, admin, user.id, { reason: 'Asked by e-mail, ticket 42' });
    expect(erased.statusCode, erased.body).toBe(204);
    const [event] = await securityEvents(s, { type: 'account_erased', userId: user.id });
    expect(event).toMatchObject({ actor_id: admin.id });
    expect(JSON.parse(event!.details!)).toEqual({
      by: 'administrator',
      reason: 'Asked by e-mail, ticket 42',
    });
    expect((await userRow(s, user.id)).erased_at).not.toBeNull();
    expectApiError(await loginJson(s, user.email, STRONG_PASSWORD), 401, 'invalid_credentials');
    expectApiError(await eraseByAdmin(s, admin, user.id, { reason: 'once more' }), 409, 'account_erased');
  });
});
