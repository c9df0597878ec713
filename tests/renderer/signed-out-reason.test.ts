import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SESSION_END_REASONS, type SessionEndReason } from '../../src/shared/api/auth';
import { signedOutMessage } from '../../src/renderer/src/features/auth/signed-out-notice';
// The portal's language (English until another is shown): the notice is written in it.
import '../../src/renderer/src/lib/i18n/portal-i18n';
import { declined } from '../../src/renderer/src/lib/checkout-window';
import { FakeApi, problem } from './support/fake-api';
import { signedInTab } from './support/signed-in';

/**
 * Issue 16, point 10: the client hands the app the reason a refused refresh gave, and each reason
 * has its sentence; point 19: a declined payment is said once.
 */
describe('why a device was signed out', () => {
  let api: FakeApi;
  beforeEach(async () => {
    api = await new FakeApi().start();
  });
  afterEach(() => api.close());

  const loseSessionWith = async (answer: { status: number; json: object }) => {
    const made = await signedInTab(api);
    const lost: (SessionEndReason | undefined)[] = [];
    made.services.client.setSessionHandlers({
      onSessionLost: (reason) => lost.push(reason),
      currentPath: () => '/dashboard',
    });
    api.revoke(made.issued.access_token);
    api.on('POST /auth/refresh', () => answer);
    await expect(made.services.client.http.get('/users/me')).rejects.toMatchObject({
      response: { status: 401 },
    });
    return lost;
  };

  it('a refused refresh with a reason hands the reason to the app as it goes to /landing', async () => {
    const refusal = problem(401, 'Session expired. Please login again.', 'invalid_refresh_token');
    const lost = await loseSessionWith({ ...refusal, json: { ...refusal.json, reason: 'password_changed' } });
    expect(lost).toEqual(['password_changed']);
  });

  it('a refused refresh without one is lost all the same, with no reason', async () => {
    expect(await loseSessionWith(problem(401, 'Invalid refresh token', 'invalid_refresh_token'))).toEqual([
      undefined,
    ]);
  });

  it('a call refused after the tokens are gone hands the app the same reason (signed out everywhere, two calls under way)', async () => {
    const made = await signedInTab(api);
    const lost: (SessionEndReason | undefined)[] = [];
    made.services.client.setSessionHandlers({
      onSessionLost: (reason) => lost.push(reason),
      currentPath: () => '/licenses',
    });
    api.revoke(made.issued.access_token);
    const refusal = problem(401, 'Session expired. Please login again.', 'invalid_refresh_token');
    api.on('POST /auth/refresh', () => ({
      ...refusal,
      json: { ...refusal.json, reason: 'signed_out_everywhere' },
    }));
    // The second call's 401 is held until the first call's refresh has been refused and the tokens
    // cleared: it then has no refresh token to spend, as in a browser whose page fired both at once.
    let answerSecond = () => {};
    const secondHeld = new Promise<void>((resolve) => (answerSecond = resolve));
    api.on('GET /licenses', async () => {
      await secondHeld;
      return problem(401, 'Invalid or expired token', 'unauthorized');
    });
    const second = made.services.client.http.get('/licenses');
    await expect(made.services.client.http.get('/users/me')).rejects.toMatchObject({
      response: { status: 401 },
    });
    expect(await made.services.tokens.getRefreshToken()).toBeNull();
    answerSecond();
    await expect(second).rejects.toMatchObject({ response: { status: 401 } });
    expect(lost).toEqual(['signed_out_everywhere', 'signed_out_everywhere']);
    expect(api.calls('POST /auth/refresh')).toHaveLength(1);
  });

  it('a new session forgets the old one’s reason: its own loss without one says only that it ended', async () => {
    const made = await signedInTab(api);
    const lost: (SessionEndReason | undefined)[] = [];
    made.services.client.setSessionHandlers({ onSessionLost: (reason) => lost.push(reason) });
    api.revoke(made.issued.access_token);
    const refusal = problem(401, 'Session expired. Please login again.', 'invalid_refresh_token');
    api.on('POST /auth/refresh', () => ({
      ...refusal,
      json: { ...refusal.json, reason: 'password_changed' },
    }));
    await expect(made.services.client.http.get('/users/me')).rejects.toMatchObject({
      response: { status: 401 },
    });

    const again = api.issue();
    await made.services.tokens.save({
      accessToken: again.access_token,
      refreshToken: again.refresh_token,
      user: null,
    });
    await made.services.client.http.get('/users/me');
    api.revoke(again.access_token);
    api.on('POST /auth/refresh', () => problem(401, 'Invalid refresh token', 'invalid_refresh_token'));
    await expect(made.services.client.http.get('/users/me')).rejects.toMatchObject({
      response: { status: 401 },
    });
    expect(lost).toEqual(['password_changed', undefined]);
  });

  it.each(SESSION_END_REASONS)(
    '%s has its own sentence, starting "You were signed out because"',
    (reason) => {
      const sentence = signedOutMessage(reason);
      expect(sentence).toMatch(/^You were signed out because .+\.$/);
      expect(sentence).not.toBe(signedOutMessage(undefined));
    },
  );

  it('no reason, or one this portal does not know, says the session ended', () => {
    expect(signedOutMessage(undefined)).toBe('You were signed out because your session ended.');
    expect(signedOutMessage('something_new' as SessionEndReason)).toBe(
      'You were signed out because your session ended.',
    );
    expect(signedOutMessage('inactive')).toBe(
      'You were signed out because there was no activity for 30 minutes.',
    );
  });
});

describe('a declined payment, said once', () => {
  it.each([
    [
      'Payment declined in the sandbox checkout (no money moved)',
      'Payment declined in the sandbox checkout (no money moved).',
    ],
    ['Insufficient funds.', 'Payment declined: Insufficient funds.'],
    ['Card expired', 'Payment declined: Card expired.'],
    ['  ', 'Payment declined.'],
  ])('%j → %j', (description, said) => {
    expect(declined(description)).toBe(said);
  });
});
