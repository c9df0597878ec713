import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/platform/config.js';
import { portalPaths } from '../../src/shared/routes.js';
import { launchChromium } from '../support/chromium.js';
import { createTestClock } from '../support/test-clock.js';
import { STRONG_PASSWORD, uniqueEmail } from '../support/test-server.js';
import { ensureRendererBuild, snapshotRendererBuild } from './support/build.js';
import { photograph } from './support/photograph.js';
import { chromiumMissingReason, expectPath, pathOf, signIn, watchPage } from './support/portal.js';

/**
 * Passkeys in Chromium with its virtual authenticator (DevTools protocol WebAuthn domain): the
 * portal's own pages run the real WebAuthn ceremonies against the real server, nothing mocked.
 *
 * WebAuthn needs a secure context and an RP id that is the page's host: the portal is served at
 * http://localhost:<port> (a secure context) and PUBLIC_URL says the same, so the server's RP id
 * is "localhost" and its expected origin the page's.
 */

/** A free loopback port, known before the config (PUBLIC_URL) is made. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The virtual authenticator a phone or laptop would be: a platform passkey with user verification. */
async function addVirtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

const describeInChromium = chromiumMissingReason ? describe.skip : describe;

describeInChromium('passkeys in Chromium', { timeout: 90_000 }, () => {
  let app: FastifyInstance;
  let browser: Browser;
  let baseUrl: string;
  let dataDir: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    await ensureRendererBuild();
    dataDir = await mkdtemp(join(tmpdir(), 'portal-e2e-passkeys-'));
    const port = await freePort();
    baseUrl = `http://localhost:${port}`;
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      JWT_SECRET: randomBytes(32).toString('base64url'),
      LOG_LEVEL: 'silent',
      AUTH_RATE_LIMIT_PER_MINUTE: '10000',
      WEB_DIR: await snapshotRendererBuild(dataDir),
      PORT: String(port),
      PUBLIC_URL: baseUrl,
    });
    app = await buildApp(config, { clock: createTestClock(), logger: false });
    await app.listen({ port, host: '127.0.0.1' });
    browser = await launchChromium();
  }, 300_000);

  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await browser?.close();
    await app?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  async function newPage(viewport = { width: 1280, height: 900 }): Promise<Page> {
    const context = await browser.newContext({ baseURL: baseUrl, viewport });
    context.setDefaultTimeout(15_000);
    contexts.push(context);
    const page = await context.newPage();
    watchPage(page);
    return page;
  }

  async function newAccount(): Promise<{ email: string; password: string; id: string }> {
    const credentials = { email: uniqueEmail('passkey-e2e'), password: STRONG_PASSWORD };
    await app.authService.createAccount({
      ...credentials,
      role: 'user',
      verified: true,
      fullName: 'Pat Key',
    });
    const row = await app.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', credentials.email)
      .executeTakeFirstOrThrow();
    return { ...credentials, id: row.id };
  }

  const passkeysSection = (page: Page) => page.getByRole('region', { name: 'Passkeys' });

  async function signOut(page: Page): Promise<void> {
    await page.getByRole('button', { name: /^Account menu for / }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expectPath(page, '/login');
  }

  /** The methods of the account's newest session, as the server recorded its sign-in. */
  async function latestSignInMethods(userId: string): Promise<unknown> {
    const family = await app.db
      .selectFrom('refresh_token_families')
      .select('methods')
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    return JSON.parse(family.methods ?? '[]');
  }

  async function addPasskeyFromSecurityPage(page: Page, name: string): Promise<void> {
    await page.goto(portalPaths.profileSecurity);
    const section = passkeysSection(page);
    await section.getByRole('button', { name: 'Add a passkey' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await section.getByRole('listitem', { name }).waitFor();
  }

  it('registers a passkey on the Security page, signs out, and signs in with it', async () => {
    const page = await newPage();
    const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
    const account = await newAccount();

    await signIn(page, account.email, account.password);
    await addPasskeyFromSecurityPage(page, 'Chromium test key');
    const item = passkeysSection(page).getByRole('listitem', { name: 'Chromium test key' });
    await expect.poll(() => item.textContent()).toContain('never used');

    // The authenticator holds one discoverable credential for this site, made by the ceremony.
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });
    const stored = await app.db
      .selectFrom('passkeys')
      .selectAll()
      .where('user_id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(stored.credential_id).toBe(
      credentials[0]?.credentialId.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, ''),
    );

    await photograph(page, 'passkeys-security-1280-light', {
      shows: [item.getByRole('button', { name: 'Remove Chromium test key' })],
    });

    // Sign out, then sign in without typing anything: the browser offers the passkey.
    await signOut(page);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect.poll(() => pathOf(page), { timeout: 15_000 }).toBe('/dashboard');

    expect(await latestSignInMethods(account.id)).toEqual(['webauthn']);
    const { credentials: after } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(after[0]?.signCount).toBeGreaterThan(credentials[0]?.signCount ?? 0);

    // Last use is shown, and removal (confirmed) takes it off the list. The sign-in is made to be
    // older than a sensitive change allows: the passkey itself confirms it is still its owner.
    await page.goto(portalPaths.profileSecurity);
    await expect.poll(() => item.textContent()).toContain('last used');
    await app.db
      .updateTable('refresh_token_families')
      .set({ authenticated_at: new Date(Date.now() - 11 * 60_000).toISOString(), stepped_up_at: null })
      .where('user_id', '=', account.id)
      .execute();
    await item.getByRole('button', { name: 'Remove Chromium test key' }).click();
    await page
      .getByRole('dialog', { name: /^Remove / })
      .getByRole('button', { name: 'Remove passkey' })
      .click();
    const stepUp = page.getByRole('dialog', { name: 'Confirm it is you' });
    await stepUp.getByRole('button', { name: 'Use a passkey' }).click();
    await stepUp.waitFor({ state: 'hidden' });
    await item.waitFor({ state: 'detached' });
    await passkeysSection(page).getByText('No passkeys yet').waitFor();
  });

  it('completes a password sign-in with a passkey as the second factor', async () => {
    const page = await newPage();
    await addVirtualAuthenticator(page);
    const account = await newAccount();
    await signIn(page, account.email, account.password);
    await addPasskeyFromSecurityPage(page, 'Second step key');
    await signOut(page);

    // With a passkey, the password alone no longer signs in: the second step asks for it.
    const form = page.locator('form');
    await form.getByRole('textbox', { name: 'E-mail' }).fill(account.email);
    await form.getByRole('textbox', { name: 'Password', exact: true }).fill(account.password);
    await form.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    // Its only second factor is the passkey: no code field to fill in.
    expect(await page.getByRole('textbox').count()).toBe(0);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await expect.poll(() => pathOf(page), { timeout: 15_000 }).toBe('/dashboard');
    expect(await latestSignInMethods(account.id)).toEqual(['pwd', 'webauthn']);
  });

  it('shows the passkeys section at phone width in dark mode', async () => {
    const page = await newPage({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await addVirtualAuthenticator(page);
    const account = await newAccount();
    await signIn(page, account.email, account.password);
    await addPasskeyFromSecurityPage(page, 'A phone with a rather long passkey name');
    // In dark: applied and readable, no sideways scroll, the long name's Remove button on screen.
    await photograph(page, 'passkeys-security-390-dark', {
      scheme: 'dark',
      target: passkeysSection(page),
      accessible: true,
      shows: [passkeysSection(page).getByRole('button', { name: /^Remove A phone with/ })],
    });

    const signedOut = await newPage({ width: 390, height: 844 });
    await signedOut.emulateMedia({ colorScheme: 'dark' });
    await signedOut.goto('/login');
    const passkeyButton = signedOut.getByRole('button', { name: 'Sign in with a passkey' });
    await passkeyButton.waitFor();
    await photograph(signedOut, 'passkeys-login-390-dark', {
      scheme: 'dark',
      accessible: true,
      shows: [passkeyButton],
    });
  });
});
