import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../src/renderer/src/app/store';
import { updateActivity, tokensRefreshed } from '../../src/renderer/src/features/auth/auth-slice';
import { recordEndpointArea } from '../../src/renderer/src/lib/api-actions';
import { refreshDelayMs, startSessionMonitor } from '../../src/renderer/src/lib/session-monitor';
import { isTokenValid, roleFromToken } from '../../src/renderer/src/lib/token';
import { testUser } from './support/fake-api';
import { inSeconds, makeJwt } from './support/jwt';
import { tabServices } from './support/services';

const MINUTE = 60_000;

describe('Token rules', () => {
  it('a stored token is valid only if it exists, decodes and its exp is in the future', () => {
    expect(isTokenValid(makeJwt({ exp: inSeconds(60) }))).toBe(true);
    expect(isTokenValid(makeJwt({ exp: inSeconds(-1) }))).toBe(false);
    expect(isTokenValid('not-a-jwt')).toBe(false);
    expect(isTokenValid('a.%%%.c')).toBe(false);
    expect(isTokenValid(null)).toBe(false);
  });

  it("the role comes from role, else user_role, else defaults to 'user'", () => {
    expect(roleFromToken(makeJwt({ exp: 1, role: 'admin' }))).toBe('admin');
    expect(roleFromToken(makeJwt({ exp: 1, user_role: 'admin' }))).toBe('admin');
    expect(roleFromToken(makeJwt({ exp: 1 }))).toBe('user');
  });

  it('refresh fires 5 minutes before expiry, at half the remaining life when that is shorter, at once under 60 s', () => {
    expect(refreshDelayMs(15 * MINUTE)).toBe(10 * MINUTE);
    expect(refreshDelayMs(6 * MINUTE)).toBe(3 * MINUTE);
    expect(refreshDelayMs(59_000)).toBe(0);
  });
});

describe('Session monitor with fake timers', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2025-06-01T12:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function monitor(token: string | null, overrides: Partial<Parameters<typeof startSessionMonitor>[0]> = {}) {
    let lastActivity = Date.now();
    const events = { inactive: 0, refreshed: 0 };
    const stop = startSessionMonitor({
      isAuthenticated: () => true,
      lastActivity: () => lastActivity,
      getAccessToken: async () => token,
      onInactive: () => {
        events.inactive += 1;
      },
      refresh: async () => {
        events.refreshed += 1;
      },
      ...overrides,
    });
    return { events, stop, touch: () => (lastActivity = Date.now()) };
  }

  it('after 30 minutes without activity an authenticated user is logged out', async () => {
    const { events, stop } = monitor(makeJwt({ exp: inSeconds(24 * 3600) }));
    await vi.advanceTimersByTimeAsync(29 * MINUTE);
    expect(events.inactive).toBe(0);
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(events.inactive).toBe(1);
    stop();
  });

  it('activity within the 30 minutes keeps the session', async () => {
    const { events, stop, touch } = monitor(makeJwt({ exp: inSeconds(24 * 3600) }));
    await vi.advanceTimersByTimeAsync(20 * MINUTE);
    touch();
    await vi.advanceTimersByTimeAsync(20 * MINUTE);
    expect(events.inactive).toBe(0);
    stop();
  });

  it('the inactivity check runs every 60 seconds (not continuously)', async () => {
    let checks = 0;
    const { stop } = monitor(makeJwt({ exp: inSeconds(24 * 3600) }), {
      isAuthenticated: () => {
        checks += 1;
        return true;
      },
    });
    const before = checks;
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    // One inactivity check and one refresh check per minute.
    expect(checks - before).toBe(10);
    stop();
  });

  it('a 15-minute token is refreshed 5 minutes before expiry', async () => {
    const { events, stop } = monitor(makeJwt({ exp: inSeconds(15 * 60) }));
    await vi.advanceTimersByTimeAsync(10 * MINUTE - 1000);
    expect(events.refreshed).toBe(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(events.refreshed).toBe(1);
    stop();
  });

  it('a token with 6 minutes left is refreshed at half its remaining life', async () => {
    const { events, stop } = monitor(makeJwt({ exp: inSeconds(6 * 60) }));
    await vi.advanceTimersByTimeAsync(3 * MINUTE - 1000);
    expect(events.refreshed).toBe(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(events.refreshed).toBe(1);
    stop();
  });

  it('with under 60 seconds left the token is refreshed at once', async () => {
    const { events, stop } = monitor(makeJwt({ exp: inSeconds(30) }));
    await vi.advanceTimersByTimeAsync(0);
    expect(events.refreshed).toBe(1);
    stop();
  });

  it('stopping the monitor cancels its timers', async () => {
    const { events, stop } = monitor(makeJwt({ exp: inSeconds(6 * 60) }));
    stop();
    await vi.advanceTimersByTimeAsync(40 * MINUTE);
    expect(events).toEqual({ inactive: 0, refreshed: 0 });
  });
});

describe('Activity time', () => {
  it('user, auth, license and admin actions refresh the activity time; the activity update itself does not loop', () => {
    let now = 1_000;
    const { services } = tabServices('http://127.0.0.1:9/api/v1', { now: () => now });
    const store = makeStore({ services });
    store.dispatch(updateActivity(5));
    expect(store.getState().auth.lastActivity).toBe(5);
    for (const type of [
      'user/fetchProfile/pending',
      'license/fetchAll/pending',
      'admin/fetchUsers/pending',
      'auth/register/pending',
    ]) {
      now += 1;
      store.dispatch({ type });
      expect(store.getState().auth.lastActivity).toBe(now);
    }
    now += 1;
    store.dispatch({ type: 'payments/other' });
    expect(store.getState().auth.lastActivity).toBe(now - 1);
  });

  it('endpoint calls of the user, auth, license and admin areas count as activity; other areas do not', () => {
    let now = 1_000;
    const { services } = tabServices('http://127.0.0.1:9/api/v1', { now: () => now });
    const store = makeStore({ services });
    recordEndpointArea('user', ['probeProfileRead']);
    recordEndpointArea('payments', ['probeOrderRead']);
    const call = (endpointName: string) => ({
      type: 'api/executeQuery/pending',
      meta: { arg: { endpointName, originalArgs: undefined } },
    });
    store.dispatch(updateActivity(5));
    now = 2_000;
    store.dispatch(call('probeProfileRead'));
    expect(store.getState().auth.lastActivity).toBe(2_000);
    now = 3_000;
    store.dispatch(call('probeOrderRead'));
    expect(store.getState().auth.lastActivity).toBe(2_000);
  });

  it('a token refresh done by the client or the timer is not user activity (else the idle logout could never fire)', () => {
    let now = 1_000;
    const { services } = tabServices('http://127.0.0.1:9/api/v1', { now: () => now });
    const store = makeStore({ services });
    store.dispatch(updateActivity(5));
    now = 99_999;
    store.dispatch(tokensRefreshed({ user: testUser, role: 'user' }));
    expect(store.getState().auth.lastActivity).toBe(5);
  });
});
