import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ActivationResult,
  type LeaseSigningKeys,
  leaseSigningKeysSchema,
} from '../../src/shared/api/licenses.js';
import { bridgeChannels } from '../../src/shared/bridge.js';
import { DESKTOP_API_KEY, PRODUCT_NAME } from '../../src/main/desktop-config.js';
import { type BridgeHandlers, createHandlers, type HandlerDeps } from '../../src/main/handlers.js';
import { HARDWARE_ID_SALT } from '../../src/main/hardware-id.js';
import { type BridgeDispatch, createBridgeDispatcher } from '../../src/main/ipc.js';
import { type KeytarLike, loadKeytar, openSecretStore } from '../../src/main/keychain.js';
import type { SecretStore } from '../../src/main/secret-store.js';
import {
  keyringMissingReason,
  type KeyringSession,
  startKeyringSession,
} from '../main/support/keyring-session.js';
import { refusedUrl } from '../main/support/licensing-server.js';
import { installDesktopBridge } from './support/desktop-bridge.js';
import { describePortal, type Portal, screenshotPath, signIn } from './support/portal.js';

const require = createRequire(import.meta.url);
const expectedHardwareId = () =>
  createHash('sha256')
    .update(
      `${HARDWARE_ID_SALT}\0${(require('node-machine-id') as { machineIdSync(raw: boolean): string }).machineIdSync(true)}`,
    )
    .digest('hex');

/** Everything the page keeps: local and session storage, cookies, IndexedDB database names. */
async function browserStorage(context: BrowserContext, page: Page) {
  const [local, session, databases] = await Promise.all([
    page.evaluate<Record<string, string>>('Object.fromEntries(Object.entries(localStorage))'),
    page.evaluate<Record<string, string>>('Object.fromEntries(Object.entries(sessionStorage))'),
    page.evaluate<string[]>('indexedDB.databases().then((list) => list.map((database) => database.name))'),
  ]);
  return { local, session, cookies: await context.cookies(), databases };
}

const AXE_PATH = require.resolve('axe-core/axe.min.js');

/** Serious or critical axe-core findings on the "This machine" card, as readable lines. */
async function seriousAxeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate<boolean>('typeof window.axe !== "undefined"')))
    await page.addScriptTag({ path: AXE_PATH });
  const violations = await page.evaluate<
    { id: string; impact: string | null; nodes: { target: unknown[] }[] }[]
  >(
    `axe.run(document.querySelector('section[aria-labelledby]'), { resultTypes: ['violations'] }).then((result) => result.violations)`,
  );
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${JSON.stringify(violation.nodes.map((node) => node.target))}`);
}

function desktopSuite(portal: Portal) {
  let keyring: KeyringSession;
  let dir: string;
  let secrets: SecretStore;
  let keytar: KeytarLike;
  let statePath: string;
  /** The keys a build pins (MAIN_VITE_LEASE_PUBLIC_KEYS): what this server serves. */
  let leasePublicKeys: LeaseSigningKeys;
  let online: BridgeHandlers;
  /** What the page's window.desktop reaches: main's dispatcher over the real handlers. */
  let dispatch: BridgeDispatch;

  const handlersFor = (overrides: Partial<HandlerDeps> = {}) =>
    createHandlers({
      secrets,
      serverUrl: portal.server.baseUrl,
      apiKey: DESKTOP_API_KEY,
      requestTimeoutMs: 5000,
      licenseStatePath: statePath,
      leasePublicKeys,
      app: { version: '0.1.0', platform: process.platform },
      ...overrides,
    });

  beforeAll(async () => {
    keyring = await startKeyringSession();
    dir = await mkdtemp(join(tmpdir(), 'desktop-e2e-'));
    statePath = join(dir, 'license-state.json');
    keytar = await loadKeytar();
    secrets = await openSecretStore({ service: PRODUCT_NAME, fallbackFile: join(dir, 'refresh-token.json') });
    const served = await portal.server.app.inject({
      url: '/api/v1/licensing/public-key',
      headers: { 'x-api-key': DESKTOP_API_KEY },
    });
    leasePublicKeys = leaseSigningKeysSchema.parse(served.json());
    online = handlersFor();
    dispatch = createBridgeDispatcher(online);
  });
  afterAll(async () => {
    await keyring?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  async function desktopPage(options: Parameters<Portal['newContext']>[0] = {}) {
    const context = await portal.newContext(options);
    await installDesktopBridge(context, () => dispatch);
    const page = await context.newPage();
    return { context, page };
  }

  it('after login the refresh token is in the OS keychain and in no browser storage', async () => {
    expect(secrets.kind).toBe('os-keychain');
    const user = await portal.server.createUser();
    const { context, page } = await desktopPage();
    await signIn(page, user.email, user.password);

    const token = await keytar.getPassword(PRODUCT_NAME, portal.server.baseUrl);
    expect(token, 'refresh token in the keychain').toMatch(/^[\w-]{32,}$/);
    // It is the session's live refresh token: the server knows its hash.
    const row = await portal.server.app.db
      .selectFrom('refresh_tokens')
      .select('used_at')
      .where(
        'token_hash',
        '=',
        createHash('sha256')
          .update(token ?? '')
          .digest('hex'),
      )
      .executeTakeFirst();
    expect(row).toEqual({ used_at: null });

    const stored = await browserStorage(context, page);
    const everything = JSON.stringify(stored);
    expect(everything).not.toContain(token);
    expect(Object.keys(stored.local)).not.toContain('desktop_ai_assistant_refresh_token');
    expect(Object.keys(stored.session).filter((key) => key.includes('refresh'))).toEqual([]);
    expect(stored.cookies.map((cookie) => cookie.name)).not.toContain('secure_refresh_token');
    expect(stored.databases).toEqual([]);
    // The access token is there (encrypted, for this tab only), as on the web.
    expect(Object.keys(stored.session)).toContain('secure_access_token');

    // Signing out clears the keychain entry.
    await page.getByRole('button', { name: /Account menu for/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect.poll(() => keytar.getPassword(PRODUCT_NAME, portal.server.baseUrl)).toBeNull();
  });

  it('the licenses page shows this machine’s hardware-derived id and the status from main, then the offline grace state', async () => {
    const user = await portal.server.createUser();
    // bypassCSP: axe is injected as a script tag, which the portal's CSP would (rightly) refuse.
    const { page } = await desktopPage({ viewport: { width: 390, height: 844 }, bypassCSP: true });
    await signIn(page, user.email, user.password);

    const hardwareId = await page.evaluate<string>('window.desktop.getHardwareId()');
    expect(hardwareId).toBe(expectedHardwareId());
    const login = await portal.server.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login/json',
      headers: { 'x-api-key': DESKTOP_API_KEY },
      payload: { email: user.email, password: user.password },
    });
    const activation = await portal.server.app.inject({
      method: 'POST',
      url: '/api/v1/licenses/activate-base',
      headers: {
        'x-api-key': DESKTOP_API_KEY,
        authorization: `Bearer ${login.json<{ access_token: string }>().access_token}`,
      },
      payload: { hardware_id: hardwareId },
    });
    expect(activation.statusCode, activation.body).toBeLessThan(300);
    const license = activation.json<ActivationResult>();
    await page.evaluate(`window.desktop.setLicenseKey(${JSON.stringify(license.license_key)})`);

    await page.goto('/licenses');
    const card = page.getByRole('region', { name: 'This machine' });
    await expect.poll(() => card.getByTestId('hardware-id').textContent()).toBe(expectedHardwareId());
    await expect.poll(() => card.getByText('Valid', { exact: true }).count()).toBe(1);
    const fromMain = await online[bridgeChannels.checkLicenseStatus]();
    expect(await card.getByTestId('license-status-message').textContent()).toBe(fromMain.message);
    expect(await card.getByText(license.license_key).count()).toBe(1);
    expect(await card.getByText('Hardware id', { exact: true }).count()).toBe(1);
    await page.screenshot({ path: await screenshotPath('desktop-this-machine-phone'), fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The network goes down: main answers from the signed lease, and the card says so.
    const dead = await refusedUrl();
    dispatch = createBridgeDispatcher(
      handlersFor({ fetch: (input, init) => fetch(input.replace(portal.server.baseUrl, dead), init) }),
    );
    try {
      await card.getByRole('button', { name: 'Check again' }).click();
      await expect.poll(() => card.getByText('Valid (offline)', { exact: true }).count()).toBe(1);
      expect(await card.getByTestId('license-status-message').textContent()).toMatch(
        /^Offline — license verified from the signed lease; [67] days left$/,
      );
      expect(await card.getByText('Could not read this machine').count()).toBe(0);
      await expect
        .poll(() => card.getByText(/Connect to the internet before .* to keep using it/).count())
        .toBe(1);
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.screenshot({
        path: await screenshotPath('desktop-this-machine-offline-dark'),
        fullPage: true,
      });
    } finally {
      dispatch = createBridgeDispatcher(online);
    }
  });

  it('the page cannot reach a channel outside the contract or pass bad arguments', async () => {
    const { page } = await desktopPage();
    await page.goto('/landing');
    const before = await keytar.getPassword(PRODUCT_NAME, portal.server.baseUrl);
    // Straight at the transport, past window.desktop: main's dispatcher still checks everything.
    const attempt = (channel: string, args: unknown[]) =>
      page.evaluate<string>(
        `window.__desktopBridgeInvoke(${JSON.stringify(channel)}, ${JSON.stringify(args)}).then(() => 'accepted', (error) => error.message)`,
      );
    const refused = [
      await attempt('desktop:shell:exec', ['ls']),
      await attempt('desktop:refresh-token:set', ['']),
    ];
    expect(refused[0]).toContain('Unknown bridge channel: desktop:shell:exec');
    expect(refused[1]).toContain('Invalid arguments for desktop:refresh-token:set');
    expect(await keytar.getPassword(PRODUCT_NAME, portal.server.baseUrl)).toBe(before);
  });
}

if (keyringMissingReason)
  describe.skip(`desktop shell in Chromium [skipped: ${keyringMissingReason}]`, () => undefined);
else
  describePortal(
    'desktop shell in Chromium: window.desktop from the real createBridge, wired to the real createHandlers through Playwright',
    desktopSuite,
  );
