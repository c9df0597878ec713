import { afterEach, describe, expect, it, vi } from 'vitest';
import { unreachableMessages } from '../../src/shared/messages';
import { focusMainHeading } from '../../src/renderer/src/app/focus-main-heading';
import { documentTitle, PUBLIC_SCREEN_TITLES } from '../../src/renderer/src/app/screen-titles';
import { pagedResult } from '../../src/renderer/src/features/admin/query-answer';
import {
  destinationAfterSignIn,
  forgetReturnPath,
  rememberReturnPath,
  RETURN_PATH_STORAGE_KEY,
  safeReturnPath,
  withNext,
} from '../../src/renderer/src/features/auth/return-path';
import { adminMessage, toApiFailure, UNREACHABLE_CODE } from '../../src/renderer/src/lib/api-errors';
import { watchUntilReachable } from '../../src/renderer/src/lib/reachability-watch';
import { isUnreachable } from '../../src/renderer/src/lib/server-reachability';

/** Issue 27, points 11, 12 and 16: the rules behind the portal's navigation, in isolation. */

/** What axios rejects with when no answer came (no connection, server down). */
const networkError = () =>
  Object.assign(new Error('Network Error'), { isAxiosError: true, code: 'ERR_NETWORK', response: undefined });

describe('where a visitor goes after signing in', () => {
  afterEach(() => forgetReturnPath());

  it('only to a path of this portal, never another site or a sign-in page again', () => {
    expect(safeReturnPath('/purchase?plan=p1')).toBe('/purchase?plan=p1');
    expect(safeReturnPath('/licenses#downloads')).toBe('/licenses#downloads');
    for (const unsafe of [
      '//evil.example/x',
      'https://evil.example',
      '/\\evil.example',
      '/login?next=/x',
      '/register',
      42,
    ])
      expect(safeReturnPath(unsafe), String(unsafe)).toBeNull();
  });

  it('the navigation’s returnTo first, then the query’s next, then what this browser kept, then home', () => {
    const now = 1_000_000;
    rememberReturnPath('/purchase?plan=kept', now);
    const search = `?${withNext('/login', '/purchase?plan=query').split('?')[1]}`;
    expect(
      destinationAfterSignIn({ state: { returnTo: '/invitations/accept' }, search }, '/dashboard', now),
    ).toBe('/invitations/accept');
    expect(destinationAfterSignIn({ state: null, search }, '/dashboard', now)).toBe('/purchase?plan=query');
    expect(destinationAfterSignIn({ state: null, search: '' }, '/dashboard', now)).toBe(
      '/purchase?plan=kept',
    );
    forgetReturnPath();
    expect(destinationAfterSignIn({ state: null, search: '' }, '/dashboard', now)).toBe('/dashboard');
  });

  it('forgets a kept destination after a week, and ignores one that is not a portal path', () => {
    const now = 5_000_000_000;
    rememberReturnPath('/purchase?plan=old', now);
    expect(destinationAfterSignIn({ state: null, search: '' }, '/home', now + 6 * 86_400_000)).toBe(
      '/purchase?plan=old',
    );
    expect(destinationAfterSignIn({ state: null, search: '' }, '/home', now + 8 * 86_400_000)).toBe('/home');
    localStorage.setItem(RETURN_PATH_STORAGE_KEY, JSON.stringify({ path: '//evil.example', at: now }));
    expect(destinationAfterSignIn({ state: null, search: '' }, '/home', now)).toBe('/home');
  });
});

describe('a server that does not answer', () => {
  it('is told apart from an answer: no response, a failed fetch or a module that could not be downloaded', () => {
    expect(isUnreachable(networkError())).toBe(true);
    expect(isUnreachable(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(
      true,
    );
    expect(isUnreachable(new TypeError('Failed to fetch'))).toBe(true);
    expect(isUnreachable({ isAxiosError: true, response: { status: 503 } })).toBe(false);
    expect(isUnreachable({ isAxiosError: true, code: 'ERR_CANCELED' })).toBe(false);
    expect(isUnreachable(new Error('render failure'))).toBe(false);
  });

  it('is said in words, never axios’s "Network Error", with a code the portal retries on', () => {
    const failure = toApiFailure(networkError(), {
      fallback: 'Failed to fetch users',
      pickMessage: adminMessage,
    });
    expect(failure.message).toBe(unreachableMessages.message);
    expect(failure.code).toBe(UNREACHABLE_CODE);
    expect(adminMessage(networkError(), 'Failed to fetch users')).toBe(unreachableMessages.message);
  });

  it('is checked again with growing pauses until it answers, then once `onBack`', async () => {
    const timers: { run: () => void; ms: number }[] = [];
    const answers = [false, false, true];
    const onBack = vi.fn();
    watchUntilReachable({
      onBack,
      probe: async () => answers.shift() ?? true,
      setTimer: (run, ms) => timers.push({ run, ms }),
      clearTimer: () => undefined,
    });
    for (let step = 0; step < 3; step += 1) {
      timers.at(-1)?.run();
      await Promise.resolve();
      await Promise.resolve();
    }
    expect(timers.map((timer) => timer.ms)).toEqual([2_000, 5_000, 10_000]);
    expect(onBack).toHaveBeenCalledTimes(1);
  });

  it('leaves an admin list without the last page it showed', () => {
    const data = { data: [{ id: 'u1' }], total: 42, page: 1, perPage: 10 };
    const failed = pagedResult({
      data,
      isFetching: false,
      error: toApiFailure(networkError()),
      refetch: () => undefined,
    });
    expect(failed.page).toBeNull();
    expect(failed.error).toBe(unreachableMessages.message);
    // While the next page loads, the last one stays (the table does not jump).
    expect(pagedResult({ data, isFetching: true, refetch: () => undefined }).page).toBe(data);
  });
});

describe('screen titles and focus', () => {
  it('every public screen has a title of its own (the signed-in ones are typed into their tables)', () => {
    const titles = Object.values(PUBLIC_SCREEN_TITLES).map((title) => title.id);
    expect(new Set(titles).size).toBe(titles.length);
    expect(documentTitle('Licenses')).toBe('Licenses · Desktop AI Assistant');
  });

  it('focuses the main heading, waiting for it when the page draws it later, but leaves a focused field alone', async () => {
    document.body.innerHTML = '<nav><a href="/x">x</a></nav><main></main>';
    const stop = focusMainHeading();
    const heading = document.createElement('h1');
    heading.textContent = 'Licenses';
    document.querySelector('main')?.append(heading);
    await vi.waitFor(() => expect(document.activeElement).toBe(heading));
    expect(heading.getAttribute('tabindex')).toBe('-1');
    stop();

    document.body.innerHTML = '<main><h1>Sign in</h1><input id="email"></main>';
    document.getElementById('email')?.focus();
    focusMainHeading()();
    expect(document.activeElement?.id).toBe('email');
  });
});
