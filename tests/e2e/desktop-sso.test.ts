import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { leaseSigningKeysSchema } from '../../src/shared/api/licenses.js';
import { bridgeChannels } from '../../src/shared/bridge.js';
import { API_BASE_PATH } from '../../src/shared/routes.js';
import { apiPaths } from '../../src/shared/api-paths.js';
import { createAppProtocolHandler } from '../../src/main/app-protocol.js';
import { DESKTOP_API_KEY, PRODUCT_NAME } from '../../src/main/desktop-config.js';
import { createHandlers } from '../../src/main/handlers.js';
import { createBridgeDispatcher } from '../../src/main/ipc.js';
import { loadKeytar, openSecretStore } from '../../src/main/keychain.js';
import { createSignIns } from '../../src/main/sign-ins.js';
import { createDesktopSso } from '../../src/main/sso-sign-in.js';
import { startOidcProvider } from '../support/oidc-provider.js';
import { keyringMissingReason, startKeyringSession } from '../main/support/keyring-session.js';
import { updateServiceForTests } from '../main/support/fake-app-updater.js';
import { RENDERER_BUILD_DIR } from './support/build.js';
import { installDesktopBridge, routeApiThroughAppProtocol } from './support/desktop-bridge.js';
import { photograph, showScheme } from './support/photograph.js';
import { accessToken, callApi, callApiOk } from './support/seed.js';
import { DESKTOP, organisationWithVerifiedDomain, PHONE, PUBLIC_URL } from './support/sso-organisation.js';
import { describePortal, type Portal } from './support/portal.js';

/**
 * Issue 32's single sign-on in the desktop app, in Chromium: the app's window is a page with the
 * real preload bridge and main's real app:// forwarding and handlers (as desktop-bridge.test.ts
 * has it; the Electron binary cannot be fetched here). The provider's pages open in a second,
 * separate browser context standing in for the system browser (shell.openExternal); the sign-in
 * comes back to main's real loopback listener, the app's sign-in page completes it, the refresh
 * token is in the OS keychain (a real Secret Service) and never in the page, and the licence is
 * checked by main on the seat the account activated.
 */

const provider = await startOidcProvider({
  redirectUris: [`${PUBLIC_URL}${API_BASE_PATH}${apiPaths.auth.ssoCallback}`],
});
afterAll(() => provider.close());

function suite(portal: Portal) {
  it('signs in through the system browser, keeps the refresh token in the keychain, and checks the seat by account', async () => {
    const keyring = await startKeyringSession();
    const dir = await mkdtemp(join(tmpdir(), 'desktop-sso-'));
    const contexts: BrowserContext[] = [];
    try {
      const server = portal.server;
      const db = server.app.db;
      const owner = await server.createUser({ fullName: 'Dora Owner' });
      const { organisationId, domain } = await organisationWithVerifiedDomain(server, owner, {
        organisation: 'Initech Desktop',
        domainPrefix: 'initech',
      });
      await callApiOk(server, {
        method: 'PUT',
        path: `/organisations/${organisationId}/sso`,
        token: await accessToken(server, owner),
        body: {
          issuer: provider.issuer,
          client_id: provider.clientId,
          client_secret: provider.clientSecret,
          scopes: 'openid email profile groups',
          require_sso: true,
        },
      });
      const newcomer = `dana@${domain}`;
      provider.accounts.set(newcomer, { email: newcomer, name: 'Dana Desk' });

      const keytar = await loadKeytar();
      const secrets = await openSecretStore({
        service: PRODUCT_NAME,
        fallbackFile: join(dir, 'refresh-token.json'),
      });
      expect(secrets.kind).toBe('os-keychain');
      const statePath = join(dir, 'license-state.json');
      const served = await server.app.inject({
        url: '/api/v1/licensing/public-key',
        headers: { 'x-api-key': DESKTOP_API_KEY },
      });

      // The app's window, and the "system browser" that shell.openExternal would open.
      const windowContext = await portal.newContext(DESKTOP);
      contexts.push(windowContext);
      // The app's window, once opened (main's `returned` loads the sign-in page in it).
      const app: { page?: Page } = {};
      // What shell.openExternal was asked to open: the test opens it in the "system browser" when
      // the window's screens are taken.
      const opened: string[] = [];
      const signIns = createSignIns();
      const sso = createDesktopSso({
        serverUrl: server.baseUrl,
        apiKey: DESKTOP_API_KEY,
        timeoutMs: 5000,
        openExternal: async (url) => {
          opened.push(url);
        },
        // What main does: show the app's sign-in page with what came back.
        returned: (fragment) => void app.page?.goto(`/login#${fragment}`),
      });
      const handlers = createHandlers({
        secrets,
        serverUrl: server.baseUrl,
        apiKey: DESKTOP_API_KEY,
        requestTimeoutMs: 5000,
        licenseStatePath: statePath,
        leasePublicKeys: leaseSigningKeysSchema.parse(served.json()),
        app: { version: '0.1.0', platform: process.platform },
        updates: updateServiceForTests({
          serverUrl: server.baseUrl,
          licenseStatePath: statePath,
          settingsPath: join(dir, 'update-settings.json'),
        }).service,
        signIns,
        sso,
      });
      await installDesktopBridge(windowContext, () => createBridgeDispatcher(handlers));
      const answers = await routeApiThroughAppProtocol(
        windowContext,
        createAppProtocolHandler({
          rendererDir: RENDERER_BUILD_DIR,
          serverUrl: server.baseUrl,
          apiKey: DESKTOP_API_KEY,
          secrets,
          signIns,
          ssoVerifier: () => sso.takeVerifier(),
        }),
      );
      const page = await windowContext.newPage();
      app.page = page;

      // E-mail first: the organisation requires single sign-on, so the button goes to the provider,
      // which opens in the system browser while the window says so.
      await page.goto('/login');
      const form = page.locator('form');
      await form.getByRole('textbox', { name: 'E-mail' }).fill(newcomer);
      await expect
        .poll(() => page.getByText(/requires single sign-on for this address/).isVisible())
        .toBe(true);
      await form.getByRole('button', { name: 'Continue with single sign-on' }).click();
      const waiting = page.getByRole('status').filter({ hasText: 'Signing in through your browser' });
      await expect.poll(() => waiting.isVisible()).toBe(true);
      for (const [device, scheme] of [
        ['desktop', 'light'],
        ['phone', 'dark'],
      ] as const) {
        if (device === 'phone') await page.setViewportSize({ width: PHONE.viewport!.width, height: 844 });
        await showScheme(page, scheme);
        await photograph(page, `desktop-sso-in-browser-${device}-${scheme}`, {
          scheme,
          accessible: true,
          shows: [waiting],
        });
      }
      await page.setViewportSize(DESKTOP.viewport!);
      await showScheme(page, 'light');

      // The provider signs Dana in there; the server sends that browser to main's loopback, which
      // says so, and the app's window signs in and goes home.
      expect(opened).toHaveLength(1);
      const browser = await portal.newContext(DESKTOP);
      contexts.push(browser);
      // portal.test is this server (the provider's redirect back goes there).
      await browser.route(`${PUBLIC_URL}/**`, (route) =>
        route.fulfill({
          status: 307,
          headers: { location: `${server.baseUrl}${route.request().url().slice(PUBLIC_URL.length)}` },
        }),
      );
      const browserPage = await browser.newPage();
      void browserPage.goto(opened[0]!).catch(() => undefined);
      await expect
        .poll(() => new URL(browserPage.url()).host, { timeout: 30_000 })
        .toMatch(/^127\.0\.0\.1:\d+$/);
      expect(new URL(browserPage.url()).pathname).toBe('/sso');
      await expect.poll(() => browserPage.getByText('You can go back to the app').isVisible()).toBe(true);
      await expect.poll(() => new URL(page.url()).pathname, { timeout: 30_000 }).toBe('/dashboard');
      await page.getByRole('button', { name: /Account menu for/ }).waitFor();

      // The session's refresh token is in the keychain, live on the server, and nowhere in the page.
      const kept = await keytar.getPassword(PRODUCT_NAME, server.baseUrl);
      expect(kept).toMatch(/^[\w-]{32,}$/);
      expect(await page.evaluate<boolean>('window.desktop.hasSession()')).toBe(true);
      const completed = answers.filter((answer) => answer.url === `${API_BASE_PATH}/auth/sso/complete`);
      expect(completed.map((answer) => answer.status)).toEqual([200]);
      expect(JSON.stringify(answers)).not.toContain(kept!);
      expect(await windowContext.cookies()).toEqual([]);
      const person = await db
        .selectFrom('users')
        .select('id')
        .where('email', '=', newcomer)
        .executeTakeFirstOrThrow();
      const membership = await db
        .selectFrom('organisation_members')
        .select('seat_assigned_at')
        .where('organisation_id', '=', organisationId)
        .where('user_id', '=', person.id)
        .executeTakeFirstOrThrow();
      expect(membership.seat_assigned_at).not.toBeNull();

      // The code the loopback heard is spent, and was worth nothing without main's verifier.
      const code = new URL(browserPage.url()).searchParams.get('sso_code');
      expect(code).toBeTruthy();
      const replay = await callApi(server, {
        method: 'POST',
        path: '/auth/sso/complete',
        body: { code },
      });
      expect(replay.statusCode).toBe(401);

      // The licence by account: main activates this machine on the seat with the session the
      // provider gave, and its own check finds it valid, on Dana's seat.
      const token = signIns.latestAccessToken();
      expect(token).toBeTruthy();
      const activated = await callApi(server, {
        method: 'POST',
        path: `/organisations/${organisationId}/seat/activate`,
        token: token!,
        body: { hardware_id: await handlers[bridgeChannels.getHardwareId]() },
      });
      expect(activated.statusCode, activated.body).toBe(201);
      await handlers[bridgeChannels.setLicenseKey](activated.json<{ license_key: string }>().license_key);
      const status = await handlers[bridgeChannels.checkLicenseStatus]();
      expect(status).toMatchObject({ valid: true, status: 'active' });
      expect(status.seat).toMatchObject({ organisation_id: organisationId });

      // Restarted (no access token in the page): the kept refresh token signs the app in again.
      await page.evaluate(`sessionStorage.removeItem('secure_access_token')`);
      await page.reload();
      await page.getByRole('button', { name: /Account menu for/ }).waitFor();
      await sso.close();
    } finally {
      for (const context of contexts) await context.close().catch(() => undefined);
      await keyring.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
}

if (keyringMissingReason)
  describe.skip(`desktop single sign-on in Chromium [skipped: ${keyringMissingReason}]`, () => undefined);
else
  describePortal('desktop single sign-on in Chromium (the system browser, a loopback, the keychain)', suite, {
    env: { SSO_ALLOW_HTTP_ISSUERS: 'true' },
    timeout: 240_000,
  });
