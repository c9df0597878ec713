import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type ActivationResult,
  type LeaseSigningKeys,
  leaseSigningKeysSchema,
} from '../../src/shared/api/licenses.js';
import { bridgeChannels } from '../../src/shared/bridge.js';
import { createAppProtocolHandler } from '../../src/main/app-protocol.js';
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
import { updateServiceForTests } from '../main/support/fake-app-updater.js';
import { RENDERER_BUILD_DIR } from './support/build.js';
import { installDesktopBridge, routeApiThroughAppProtocol } from './support/desktop-bridge.js';
import { photograph, showScheme } from './support/photograph.js';
import { describePortal, type Portal, pathOf, signIn } from './support/portal.js';

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
const MINUTE = 60_000;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

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
      updates: updateServiceForTests({
        serverUrl: portal.server.baseUrl,
        licenseStatePath: statePath,
        settingsPath: join(dir, 'update-settings.json'),
      }).service,
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
  // Each test starts as a fresh install would: no session kept by main, whatever the last one left.
  beforeEach(() => secrets.delete(portal.server.baseUrl));
  afterAll(async () => {
    await keyring?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /**
   * A page as the desktop window has it: window.desktop from the real bridge, and every /api call
   * through main's real app:// forwarding (which keeps the refresh token) to the server.
   */
  async function desktopPage(options: Parameters<Portal['newContext']>[0] = {}) {
    const context = await portal.newContext(options);
    await installDesktopBridge(context, () => dispatch);
    const answers = await routeApiThroughAppProtocol(
      context,
      createAppProtocolHandler({
        rendererDir: RENDERER_BUILD_DIR,
        serverUrl: portal.server.baseUrl,
        apiKey: DESKTOP_API_KEY,
        secrets,
      }),
    );
    const page = await context.newPage();
    return { context, page, answers };
  }

  const keptToken = () => keytar.getPassword(PRODUCT_NAME, portal.server.baseUrl);
  const tokenRow = (token: string) =>
    portal.server.app.db
      .selectFrom('refresh_tokens')
      .innerJoin('refresh_token_families as family', 'family.id', 'refresh_tokens.family_id')
      .select(['refresh_tokens.used_at', 'family.revoked_reason'])
      .where('token_hash', '=', sha256(token))
      .executeTakeFirstOrThrow();

  it('no page script can obtain the refresh token, while the session refreshes and signing out ends it on the server', async () => {
    expect(secrets.kind).toBe('os-keychain');
    const user = await portal.server.createUser();
    const { context, page, answers } = await desktopPage();
    const accountMenu = page.getByRole('button', { name: /Account menu for/ });
    /** Every refresh token of this session, as main kept them one after the other. */
    const issued: string[] = [];
    const nextToken = async () => {
      const previous = issued.at(-1);
      await expect.poll(keptToken, { message: 'main keeps a new refresh token' }).not.toBe(previous ?? null);
      const token = (await keptToken()) ?? '';
      expect(token).toMatch(/^[\w-]{32,}$/);
      issued.push(token);
      return token;
    };

    await signIn(page, user.email, user.password);
    await accountMenu.waitFor();
    // The session's live refresh token is in the keychain: the server knows its hash.
    expect(await tokenRow(await nextToken())).toEqual({ used_at: null, revoked_reason: null });

    // Start-up without an access token (as after a restart): the renderer refreshes through main.
    await page.evaluate(`sessionStorage.removeItem('secure_access_token')`);
    await page.reload();
    await accountMenu.waitFor();
    expect(pathOf(page)).toBe('/dashboard');
    const afterStartUp = await nextToken();
    expect((await tokenRow(issued[0] ?? '')).used_at).not.toBeNull();

    // The access token expires on the server's clock (the page still takes it for valid): the
    // dashboard's calls get 401, and the client refreshes through main and retries them.
    portal.server.clock.advance(16 * MINUTE);
    try {
      await page.reload();
      await nextToken();
      await accountMenu.waitFor();
      expect(pathOf(page)).toBe('/dashboard');
      expect((await tokenRow(afterStartUp)).used_at).not.toBeNull();
      expect(answers.some((answer) => answer.status === 401)).toBe(true);
    } finally {
      portal.server.clock.advance(-16 * MINUTE);
    }
    expect(
      answers.filter((answer) => answer.url === '/api/v1/auth/refresh').map((answer) => answer.status),
    ).toEqual([200, 200]);

    // A page script calling the refresh itself gets an access token, and still no refresh token.
    const byScript = await page.evaluate<{ status: number; fields: string[] }>(`
      fetch('/api/v1/auth/refresh', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refresh_token: 'give-me-the-refresh-token' }),
      }).then(async (response) => ({ status: response.status, fields: Object.keys(await response.json()) }))
    `);
    expect(byScript.status).toBe(200);
    expect(byScript.fields).toContain('access_token');
    expect(byScript.fields.filter((field) => /refresh_?token/i.test(field))).toEqual([]);
    await nextToken();

    // Everything a page script can read: window.desktop, storage, cookies, every API answer.
    const fromBridge = await page.evaluate<{ methods: string[]; answers: string }>(`(async () => {
      const methods = Object.keys(window.desktop);
      const answers = [];
      for (const method of methods)
        // onUpdateStateChange subscribes (it answers a function, no promise): nothing to read there;
        // usage and floating are objects of methods (report use, read what is left; a floating seat's
        // state, borrow, return), which carry no secret and some of which act.
        if (typeof window.desktop[method] === 'function' && method !== 'forgetSession' && method !== 'setLicenseKey' && method !== 'onUpdateStateChange')
          answers.push(await window.desktop[method]().catch((error) => String(error)));
      return { methods, answers: JSON.stringify(answers) };
    })()`);
    expect(fromBridge.methods.filter((method) => /token/i.test(method))).toEqual([]);
    const stored = await browserStorage(context, page);
    const storageNames = [...Object.keys(stored.local), ...Object.keys(stored.session)];
    expect(storageNames.filter((name) => /refresh/i.test(name))).toEqual([]);
    expect(stored.cookies).toEqual([]);
    expect(await page.evaluate<string>('document.cookie')).toBe('');
    expect(stored.databases).toEqual([]);
    // The access token is there (encrypted, for this tab only), as on the web.
    expect(Object.keys(stored.session)).toContain('secure_access_token');
    const readable = [fromBridge.answers, JSON.stringify(stored), JSON.stringify(answers)].join('\n');
    expect(answers.length).toBeGreaterThan(5);
    for (const token of issued) expect(readable).not.toContain(token);
    expect(answers.filter((answer) => /"refresh_?token"/i.test(answer.body))).toEqual([]);

    // Signing out ends the session on the server and deletes the keychain entry.
    await accountMenu.click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect.poll(keptToken).toBeNull();
    expect(await tokenRow(issued.at(-1) ?? '')).toMatchObject({ revoked_reason: 'logout' });
    expect(await page.evaluate<boolean>('window.desktop.hasSession()')).toBe(false);
    for (const token of issued) expect(JSON.stringify(answers)).not.toContain(token);
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
    await photograph(page, 'desktop-this-machine-phone', {
      fullPage: true,
      shows: [card.getByTestId('hardware-id'), card.getByTestId('license-status-message')],
    });
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
      await showScheme(page, 'dark');
      await photograph(page, 'desktop-this-machine-offline-dark', {
        scheme: 'dark',
        fullPage: true,
        shows: [
          card.getByTestId('license-status-message'),
          card.getByRole('button', { name: 'Check again' }),
        ],
      });
    } finally {
      dispatch = createBridgeDispatcher(online);
    }
  });

  it('a page the web server rendered ahead of time is rendered afresh under the bridge: the desktop’s sign-in, no mismatch', async () => {
    const { page } = await desktopPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    await page.goto('/login');
    // The desktop's own line, which the page rendered for the web does not have.
    await page.getByRole('link', { name: 'No network on this computer? Activate it by file' }).waitFor();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(problems).toEqual([]);
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
      await attempt('desktop:refresh-token:get', []),
      await attempt('desktop:session:forget', ['everything']),
    ];
    expect(refused[0]).toContain('Unknown bridge channel: desktop:shell:exec');
    expect(refused[1]).toContain('Unknown bridge channel: desktop:refresh-token:get');
    expect(refused[2]).toContain('Invalid arguments for desktop:session:forget');
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
