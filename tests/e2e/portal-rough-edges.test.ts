import type { Locator, Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { STRONG_PASSWORD, uniqueEmail } from '../support/test-server.js';
import { blockingViolations, installAxe } from './support/axe.js';
import { controlContrastProblems } from './support/control-contrast.js';
import { appliedColorScheme } from './support/pages.js';
import { photograph, type PhotographOptions, showScheme } from './support/photograph.js';
import { describePortal, expectPath, type Portal, readVerificationLink, signIn } from './support/portal.js';
import type { Credentials } from './support/server.js';

/**
 * Issue 16, points 1, 2, 3, 10, 17 and 18, through the real build in Chromium against the real
 * server: one theme state, a confirmation link opened twice, /landing when signed in, the notice of
 * why a device was signed out, toasts that hide no control, and the password visibility toggle by
 * keyboard. Screenshots of what changed land in test-results/screenshots/issue16-*.png.
 */

const DESKTOP = { viewport: { width: 1440, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

const API_KEY = { 'x-api-key': 'dap-web-public' };

/** Signs in through the API (no browser): the tokens of a new session of `who`. */
async function apiSession(portal: Portal, who: Credentials): Promise<{ access_token: string }> {
  const answer = await portal.server.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login/json',
    headers: API_KEY,
    payload: who,
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<{ access_token: string }>();
}

async function setThemeByApi(portal: Portal, who: Credentials, theme: 'light' | 'dark' | 'system') {
  const { access_token } = await apiSession(portal, who);
  const answer = await portal.server.app.inject({
    method: 'PUT',
    url: '/api/v1/users/me/preferences',
    headers: { ...API_KEY, authorization: `Bearer ${access_token}` },
    payload: { theme },
  });
  expect(answer.statusCode, answer.body).toBe(200);
}

async function savedTheme(portal: Portal, who: Credentials): Promise<string> {
  const { access_token } = await apiSession(portal, who);
  const answer = await portal.server.app.inject({
    method: 'GET',
    url: '/api/v1/users/me',
    headers: { ...API_KEY, authorization: `Bearer ${access_token}` },
  });
  return answer.json<{ preferences: { theme: string } }>().preferences.theme;
}

/** The rectangle of an element in the viewport. */
async function box(locator: Locator) {
  const rect = await locator.boundingBox();
  if (!rect) throw new Error(`${String(locator)} has no box (not visible)`);
  return rect;
}

type Rect = { x: number; y: number; width: number; height: number };
const overlaps = (a: Rect, b: Rect) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Checks what the picture claims (photograph: scheme, no sideways scroll, `shows` on screen), then saves it. */
async function shoot(page: Page, name: string, options: PhotographOptions) {
  await page.mouse.move(0, 0);
  await photograph(page, `issue16-${name}`, options);
}

describePortal(
  'issue 16: the portal’s rough edges',
  (portal) => {
    let customer: Credentials;
    beforeAll(async () => {
      customer = await portal.server.createUser({ fullName: 'Theo Theme' });
    });

    it('1. the account’s theme applies at sign-in, the header switch saves it, System follows the device', async () => {
      const who = await portal.server.createUser({ fullName: 'Dana Dark' });
      await setThemeByApi(portal, who, 'dark');

      // Another browser, its system in light: the account's Dark applies at sign-in, and the profile says Dark.
      const page = await portal.newPage({ ...DESKTOP, colorScheme: 'light', reducedMotion: 'reduce' });
      await signIn(page, who.email, who.password);
      await expect.poll(() => appliedColorScheme(page), { message: 'the account’s dark theme' }).toBe('dark');
      await page.goto('/profile');
      const theme = page.getByRole('radiogroup', { name: 'Theme' });
      expect(await theme.getByRole('radio', { name: 'Dark' }).isChecked()).toBe(true);

      // The header switch applies light and saves it: the profile and the account follow.
      await page.getByRole('button', { name: 'Switch to light mode' }).click();
      await expect.poll(() => appliedColorScheme(page)).toBe('light');
      await expect.poll(() => theme.getByRole('radio', { name: 'Light' }).isChecked()).toBe(true);
      await expect
        .poll(() => savedTheme(portal, who), { message: 'the switch saved to the account' })
        .toBe('light');

      // System follows the device's setting, both ways.
      await theme.getByRole('radio', { name: 'System' }).check();
      await expect.poll(() => savedTheme(portal, who)).toBe('system');
      await page.emulateMedia({ colorScheme: 'dark' });
      await expect.poll(() => appliedColorScheme(page)).toBe('dark');
      await page.emulateMedia({ colorScheme: 'light' });
      await expect.poll(() => appliedColorScheme(page)).toBe('light');
    });

    it('2. a confirmation link opened twice says the e-mail is confirmed; a dead one points at the form below', async () => {
      const email = uniqueEmail('twice');
      const registered = await portal.server.app.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        headers: API_KEY,
        payload: { email, password: STRONG_PASSWORD },
      });
      expect(registered.statusCode).toBe(202);
      await portal.server.app.mailOutbox.drain();
      const link = await readVerificationLink(portal.server.outboxDir, email);

      const page = await portal.newPage({ ...PHONE, colorScheme: 'light', reducedMotion: 'reduce' });
      await page.goto(link);
      await page.getByRole('heading', { name: 'E-mail confirmed' }).waitFor();
      // A mail scanner got there first, or a double click: the second visit is not a failure.
      await page.goto(link);
      await page.getByRole('heading', { name: 'E-mail confirmed' }).waitFor();
      expect(await page.getByRole('status').first().innerText()).toBe(
        'Your e-mail address is already confirmed. You can sign in.',
      );
      await page.getByRole('link', { name: 'Sign in' }).first().waitFor();
      await shoot(page, 'verify-again-phone-light', {
        scheme: 'light',
        shows: [page.getByRole('status').first(), page.getByRole('link', { name: 'Sign in' }).first()],
      });

      await page.goto(`/verify-registration?token=${'x'.repeat(43)}`);
      await page.getByRole('heading', { name: 'We could not confirm your e-mail' }).waitFor();
      const problem = await page.getByRole('alert').first().innerText();
      expect(problem).toContain('invalid or has expired');
      expect(problem).not.toContain('sign-in page');
      expect(await page.getByText('Enter your e-mail address below').isVisible()).toBe(true);
      // The form it points at is right there.
      await page.getByRole('textbox', { name: 'E-mail' }).waitFor();
      await page.getByRole('button', { name: 'Send a new confirmation link' }).waitFor();
      await showScheme(page, 'dark');
      await shoot(page, 'verify-dead-phone-dark', {
        scheme: 'dark',
        shows: [
          page.getByRole('alert').first(),
          page.getByRole('textbox', { name: 'E-mail' }),
          page.getByRole('button', { name: 'Send a new confirmation link' }),
        ],
      });
    });

    it('3. signed in, /landing offers "Open dashboard" (an administrator: "Open admin") instead of signing in', async () => {
      const page = await portal.newPage({ ...DESKTOP, colorScheme: 'light', reducedMotion: 'reduce' });
      await signIn(page, customer.email, customer.password);
      await page.goto('/landing');
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      const header = page.locator('header');
      await header.getByRole('link', { name: 'Open dashboard' }).waitFor();
      expect(await header.getByRole('link', { name: 'Sign in' }).count()).toBe(0);
      expect(await header.getByRole('link', { name: 'Create account' }).count()).toBe(0);
      expect(await page.getByRole('main').getByRole('link', { name: 'Sign in' }).count()).toBe(0);
      // A plan leads to its checkout on the purchase screen, not to registration.
      expect(
        await page
          .getByRole('link', { name: /^Get started with / })
          .first()
          .getAttribute('href'),
      ).toMatch(/^\/purchase\?plan=[0-9a-f-]{36}$/);
      await shoot(page, 'landing-signed-in-desktop-light', {
        scheme: 'light',
        shows: [header.getByRole('link', { name: 'Open dashboard' })],
      });
      await header.getByRole('link', { name: 'Open dashboard' }).click();
      await expectPath(page, '/dashboard');

      const admin = await portal.newPage({ ...PHONE, colorScheme: 'dark', reducedMotion: 'reduce' });
      await signIn(admin, portal.server.admin.email, portal.server.admin.password);
      await admin.goto('/landing');
      await admin.getByRole('heading', { level: 1 }).first().waitFor();
      await admin.locator('header').getByRole('link', { name: 'Open admin' }).waitFor();
      await shoot(admin, 'landing-admin-phone-dark', {
        scheme: 'dark',
        shows: [admin.locator('header').getByRole('link', { name: 'Open admin' })],
      });
    });

    it('10. signed out everywhere from another device: /landing, and once, why', async () => {
      const who = await portal.server.createUser();
      const page = await portal.newPage({ ...DESKTOP, colorScheme: 'light', reducedMotion: 'reduce' });
      await signIn(page, who.email, who.password);
      await expectPath(page, '/dashboard');

      // Another device signs the account out everywhere.
      const elsewhere = await apiSession(portal, who);
      const out = await portal.server.app.inject({
        method: 'POST',
        url: '/api/v1/auth/logout-all',
        headers: { ...API_KEY, authorization: `Bearer ${elsewhere.access_token}` },
      });
      expect(out.statusCode).toBe(200);

      // The next call of this device is refused; the refresh says why.
      await page.getByRole('link', { name: 'Licenses' }).click();
      await expectPath(page, '/landing');
      const notice = page.locator('.mantine-Notification-root', { hasText: 'Signed out' });
      await notice.waitFor();
      expect(await notice.innerText()).toContain(
        'You were signed out because your account was signed out on every device.',
      );
      await shoot(page, 'signed-out-notice-desktop-light', { scheme: 'light', shows: [notice] });

      // Once: dismissed, it does not come back on the next page or a reload.
      await notice.getByRole('button', { name: 'Dismiss notification' }).click();
      await notice.waitFor({ state: 'detached' });
      await page.reload();
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.waitForLoadState('networkidle');
      expect(await page.locator('.mantine-Notification-root').count()).toBe(0);
    });

    it('16. in dark mode the colour-contrast rule judges the screen and fails on a regression; so does the controls’ 3:1', async () => {
      const context = await portal.newContext({ ...DESKTOP, colorScheme: 'dark', reducedMotion: 'reduce' });
      await installAxe(context);
      const page = await context.newPage();
      await signIn(page, customer.email, customer.password);
      await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(await appliedColorScheme(page)).toBe('dark');

      // The rule runs and decides: text is judged (passes), none is left undecided behind the dots.
      const judged = await page.evaluate<{ passes: number; incomplete: string[] }>(
        `axe.run(document, { runOnly: ['color-contrast'] }).then((result) => ({
          passes: result.passes.reduce((sum, rule) => sum + rule.nodes.length, 0),
          incomplete: result.incomplete.flatMap((rule) => rule.nodes.map((node) => JSON.stringify(node.target) + ' ' + (node.failureSummary || '').replace(/\\s+/g, ' '))),
        }))`,
      );
      expect(judged.passes).toBeGreaterThan(20);
      expect(judged.incomplete, judged.incomplete.join('\n')).toEqual([]);
      expect(await blockingViolations(page, 'dashboard (dark)', ['color-contrast'])).toEqual([]);
      expect(await controlContrastProblems(page)).toEqual([]);
      await shoot(page, 'dashboard-desktop-dark', { scheme: 'dark' });

      // A regression: dim text, a light button without its outline, a plain current navigation item.
      await page.addStyleTag({
        content: `main h1 { color: #3a3c4e !important; }
          button[data-variant="light"], a[data-variant="light"], .mantine-NavLink-root[data-active] { border-color: transparent !important; }`,
      });
      const regressed = await blockingViolations(page, 'dashboard (dark, regressed on purpose)', [
        'color-contrast',
      ]);
      expect(regressed.map((violation) => violation.id)).toEqual(['color-contrast']);
      const controls = await controlContrastProblems(page);
      expect(controls.some((line) => line.startsWith('"Dashboard"'))).toBe(true);
      expect(controls.some((line) => line.startsWith('"Activate this machine"'))).toBe(true);
    });

    for (const [device, options] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const)
      it(`17. toasts cover neither the header's account menu nor a drawer's title and close button (${device})`, async () => {
        const page = await portal.newPage({ ...options, colorScheme: 'light', reducedMotion: 'reduce' });
        await signIn(page, customer.email, customer.password);
        await page.goto('/profile');
        await page.getByRole('switch', { name: /Product updates/ }).click();
        const toast = page.locator('.mantine-Notification-root', { hasText: 'Preferences saved' });
        await toast.waitFor();
        const toastBox = await box(toast);
        const menu = await box(page.getByRole('button', { name: /^Account menu for / }));
        expect(overlaps(toastBox, menu), 'the toast covers the account menu').toBe(false);
        expect(toastBox.y + toastBox.height).toBeLessThanOrEqual(options.viewport.height);
        await shoot(page, `toast-${device}-light`, { scheme: 'light' });

        // A drawer, same screen size: its title and close button are clear of where toasts go.
        const admin = await portal.newPage({ ...options, colorScheme: 'dark', reducedMotion: 'reduce' });
        await signIn(admin, portal.server.admin.email, portal.server.admin.password);
        await admin.goto('/admin/users');
        // A table's first row on a desktop, the first card on a phone.
        await admin
          .getByRole('table', { name: 'Users' })
          .getByRole('row')
          .nth(1)
          .or(admin.getByRole('list', { name: 'Users' }).getByRole('listitem').first())
          .waitFor();
        await admin
          .getByRole('button', { name: /^Details of / })
          .first()
          .click();
        const drawer = admin.getByRole('dialog');
        await drawer.waitFor();
        const title = await box(drawer.locator('.mantine-Drawer-title'));
        const close = await box(drawer.locator('.mantine-Drawer-close'));
        expect(overlaps(toastBox, title), 'the toast would cover the drawer’s title').toBe(false);
        expect(overlaps(toastBox, close), 'the toast would cover the drawer’s close button').toBe(false);
      });

    it('the screens these points changed, at 1440×900 and 390×844 in light and dark (test-results/screenshots/issue16-*)', async () => {
      const views = [
        { who: customer, paths: ['/landing', '/dashboard', '/profile'] },
        { who: portal.server.admin, paths: ['/admin/users'] },
      ];
      let count = 0;
      for (const [device, options] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const)
        for (const { who, paths } of views) {
          const page = await portal.newPage({ ...options, colorScheme: 'light', reducedMotion: 'reduce' });
          await signIn(page, who.email, who.password);
          for (const path of paths) {
            await page.goto(path);
            await page.getByRole('heading', { level: 1 }).first().waitFor();
            await page.waitForLoadState('networkidle');
            for (const scheme of ['light', 'dark'] as const) {
              await showScheme(page, scheme);
              // Each screen as issue 6 checks it (axe, contrast, controls' 3:1), in the scheme
              // asked for, no wider than the screen, with its heading on screen.
              await shoot(page, `${path.slice(1).replace('/', '-')}-${device}-${scheme}`, {
                scheme,
                // The landing page's gradients leave axe undecided there; what it decides is judged.
                accessible: path === '/landing' ? 'decided' : true,
                shows: [page.getByRole('heading', { level: 1 }).first()],
              });
              count++;
            }
          }
          await page.context().close();
        }
      expect(count).toBe(16);
    });

    it('18. the password visibility toggle is reached with Tab, named for what it does, and works from the keyboard', async () => {
      const page = await portal.newPage({ ...DESKTOP, colorScheme: 'light', reducedMotion: 'reduce' });
      await page.goto('/login');
      const form = page.locator('form');
      const password = form.getByRole('textbox', { name: 'Password', exact: true });
      await password.fill('correct horse battery');
      await password.focus();
      await page.keyboard.press('Tab');
      const focused = await page.evaluate<Record<string, string | null>>(
        `({ tag: document.activeElement?.tagName ?? null,
            name: document.activeElement?.getAttribute('aria-label') ?? null,
            pressed: document.activeElement?.getAttribute('aria-pressed') ?? null })`,
      );
      expect(focused).toEqual({ tag: 'BUTTON', name: 'Show password', pressed: 'false' });
      expect(await password.getAttribute('type')).toBe('password');
      await page.keyboard.press('Enter');
      expect(await password.getAttribute('type')).toBe('text');
      const toggle = form.getByRole('button', { name: 'Show password' });
      expect(await toggle.getAttribute('aria-pressed')).toBe('true');
      await page.keyboard.press('Space');
      expect(await password.getAttribute('type')).toBe('password');
      await shoot(page, 'login-toggle-focused-desktop-light', { scheme: 'light', shows: [toggle] });
    });
  },
  { timeout: 120_000 },
);
