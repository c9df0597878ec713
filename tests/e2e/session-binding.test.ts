import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { describePortal, expectPath, signIn, watchPage } from './support/portal.js';

const WEB_API_KEY = 'dap-web-public';

/** A refresh call made by a page script, as injected code would make it: its status. */
const refreshFromPage = (page: Page, refreshToken: string) =>
  page.evaluate(
    async ({ token, apiKey }) => {
      const response = await fetch('/api/v1/auth/refresh', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify({ refresh_token: token }),
      });
      return { status: response.status, body: (await response.json()) as { code?: string } };
    },
    { token: refreshToken, apiKey: WEB_API_KEY },
  );

describePortal('a web session is bound to the browser that signed in', (portal) => {
  it('a refresh token copied into another browser context cannot refresh; the original keeps working', async () => {
    const user = await portal.server.createUser();
    const own = await portal.newContext();
    const page = await own.newPage();
    watchPage(page);
    // The tokens answer of the sign-in: what a script in the page can read from its storage.
    const signedIn = page.waitForResponse((response) =>
      /\/api\/v1\/auth\/login(\/json)?$/.test(response.url()),
    );
    await signIn(page, user.email, user.password);
    await expectPath(page, '/dashboard');
    const { refresh_token: stolen } = (await (await signedIn).json()) as { refresh_token: string };
    expect(stolen).toBeTruthy();

    // The binding cookie is out of the page's reach: HttpOnly, SameSite=Strict.
    const binding = (await own.cookies()).find((cookie) => cookie.name === 'dap_session_binding');
    expect(binding).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/v1/auth' });
    expect(await page.evaluate<string>('document.cookie')).not.toContain('dap_session_binding');

    // Another browser (the thief's) on the same origin, holding the copied token but not the cookie.
    const thief = await portal.newPage();
    await thief.goto('/landing');
    const refused = await refreshFromPage(thief, stolen);
    expect(refused).toMatchObject({ status: 401, body: { code: 'invalid_refresh_token' } });

    // The owner's browser still refreshes with that very token: a new tab (no session storage yet)
    // restores the session through the portal's own refresh call, which carries the cookie.
    const tab = await own.newPage();
    watchPage(tab);
    const refreshed = tab.waitForResponse((response) => response.url().endsWith('/api/v1/auth/refresh'));
    await tab.goto('/dashboard');
    const answer = await refreshed;
    expect(answer.request().postDataJSON()).toEqual({ refresh_token: stolen });
    expect(answer.status()).toBe(200);
    await tab.getByRole('button', { name: /^Account menu for / }).waitFor();
    await expectPath(tab, '/dashboard');
  });
});
