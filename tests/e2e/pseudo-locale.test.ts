import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { PRODUCT_NAME } from '../../src/shared/constants.js';
import { looksUntranslated, PSEUDO_LANGUAGE } from '../../src/shared/languages.js';
import { LANGUAGE_STORAGE_KEY } from '../../src/shared/storage-keys.js';
import { pseudoText } from '../../src/shared/pseudo-text.js';
import { describePortal, type Portal, screenshotPath, signIn, watchPage } from './support/portal.js';
import { type SeededCustomer, seedCustomer, seedSubscription } from './support/seed.js';
import type { Credentials } from './support/server.js';
import {
  ADMIN_SCREENS,
  type ScreenContext,
  showScreen,
  type SignedInScreen,
  trackNetwork,
  USER_SCREENS,
} from './support/signed-in-pages.js';

/**
 * Issue 34, "No string left behind": every screen in the pseudo-locale, where each message the
 * portal translates is accented and 40 % longer, so any run of plain Latin letters left on screen
 * (text, or a label a screen reader reads) is text that never went through a translation.
 *
 * What is not the portal's own text is taken out first: the seeded people, keys and the
 * catalogue's names (data), the product's name, addresses. The browser's locale is Japanese, so
 * dates and amounts, which Intl writes for the locale, carry no Latin letters either.
 */

/** Admin screens the screen baselines leave out, checked here too. */
const MORE_ADMIN_SCREENS: readonly SignedInScreen[] = [
  { name: 'admin-organisations', path: () => '/admin/organisations', heading: 'Organizations' },
  { name: 'admin-usage', path: () => '/admin/usage', heading: 'Usage' },
  { name: 'admin-webhooks', path: () => '/admin/webhooks', heading: 'Webhooks' },
  { name: 'admin-api-tokens', path: () => '/admin/api-tokens', heading: 'API tokens' },
  { name: 'admin-releases', path: () => '/admin/releases', heading: 'Releases' },
  {
    name: 'admin-offline-activation',
    path: () => '/admin/offline-activation',
    heading: 'Offline activation',
  },
];

/** The customer's screens the screen baselines leave out, checked here too. */
const MORE_USER_SCREENS: readonly SignedInScreen[] = [
  { name: 'organisations', path: () => '/organisations', heading: 'Organizations' },
  { name: 'security', path: () => '/profile/security', heading: 'Security' },
  { name: 'offline-activation', path: () => '/offline-activation', heading: 'Offline activation' },
];

/** A button's name in the pseudo-locale, from its English: its letters, without the padding. */
const pseudoName = (english: string) => new RegExp(`^${pseudoText(english).replace(/·+$/, '')}`);

/**
 * The customer's dialogs: on the screen at `path`, the button that opens each (its English name;
 * `within`: the region it is in, when the name is not the page's only one).
 */
const USER_DIALOGS: readonly { name: string; path: string; button: string; within?: string }[] = [
  { name: 'change-plan', path: '/subscriptions', button: 'Change plan…' },
  { name: 'pause', path: '/subscriptions', button: 'Pause…' },
  { name: 'cancel', path: '/subscriptions', button: 'Cancel subscription…' },
  { name: 'sign-out-everywhere', path: '/profile', button: 'Sign out of all devices' },
  { name: 'delete-account', path: '/profile', button: 'Delete my account' },
  { name: 'create-organisation', path: '/organisations', button: 'Create organization' },
  // Last: it opens a checkout, which the subscriptions above would list.
  { name: 'sandbox-checkout', path: '/purchase', button: 'Subscribe' },
];

const PUBLIC_PATHS = [
  '/landing',
  '/login',
  '/register',
  '/forgot-password',
  `/reset-password?token=${'r'.repeat(43)}`,
];

interface ShownText {
  text: string;
  where: string;
}

/** Every text the page shows or names for a screen reader, with where it is (tag, test id or class). */
const SHOWN_TEXT = `(() => {
  const where = (el) => el.tagName.toLowerCase() + (el.getAttribute('data-testid') ? '[data-testid=' + el.getAttribute('data-testid') + ']' : '') +
    (el.id ? '#' + el.id : '') + (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ')[0] : '');
  const shown = (el) => el.checkVisibility({ checkVisibilityCSS: true });
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    const text = node.textContent.trim();
    if (!el || !text || ['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE'].includes(el.tagName)) continue;
    if (el.closest('code, kbd, pre, [translate="no"]') || !shown(el)) continue;
    found.push({ text, where: where(el) });
  }
  for (const el of document.body.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
    if (!shown(el)) continue;
    for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
      const value = el.getAttribute(name);
      if (value) found.push({ text: value, where: where(el) + '@' + name });
    }
  }
  found.push({ text: document.title, where: 'title' });
  return found;
})()`;

/** Texts with plain Latin words left once the data in them is taken out. */
function untranslated(shown: ShownText[], data: readonly string[]): ShownText[] {
  const byLength = [...new Set(data)].filter(Boolean).sort((a, b) => b.length - a.length);
  return shown.filter(({ text }) => {
    // The data first, whole (a machine's id holds hex the patterns below would cut).
    let rest = text;
    for (const value of byLength) rest = rest.split(value).join(' ');
    rest = rest
      .replace(/https?:\/\/\S+/g, ' ')
      .replace(/\S+@\S+\.\w+/g, ' ')
      // Invoice and credit-note numbers, and the license key's shape in its field's hint.
      .replace(/\b(INV|CN)-\d+\b/g, ' ')
      // The payment provider's ids (order_…, sub_…) and ISO currency codes.
      .replace(/\b[a-z]+_\S+/g, ' ')
      .replace(/\b(INR|USD|EUR)\b/g, ' ')
      // Hardware ids and other hexadecimal ids, whole or shortened.
      .replace(/\b(?=[0-9a-f]*\d)[0-9a-f]{6,}\b/g, ' ')
      .replace(/\bX{5}(-X{5})+\b/g, ' ');
    return looksUntranslated(rest);
  });
}

/** A script that makes `language` this browser's choice (what the language switch keeps). */
const choose = (language: string) =>
  `localStorage.setItem(${JSON.stringify(LANGUAGE_STORAGE_KEY)}, ${JSON.stringify(language)})`;

/** A page whose browser speaks Japanese; in the pseudo-locale from its first load unless `signingIn`. */
async function pseudoPage(portal: Portal, signingIn = false): Promise<Page> {
  const context = await portal.newContext({ locale: 'ja-JP', timezoneId: 'UTC', reducedMotion: 'reduce' });
  if (!signingIn) await context.addInitScript(choose(PSEUDO_LANGUAGE));
  const page = await context.newPage();
  watchPage(page);
  return page;
}

async function findings(page: Page, label: string, data: readonly string[]): Promise<string[]> {
  const left = untranslated(await page.evaluate<ShownText[]>(SHOWN_TEXT), data);
  if (left.length === 0) return [];
  const path = await screenshotPath(`pseudo-locale-${label.replaceAll('/', '_')}`);
  await page.screenshot({ path, fullPage: true }).catch(() => undefined);
  return [`${label} (${path}):`, ...left.map(({ text, where }) => `  "${text}" in ${where}`)];
}

describePortal(
  'every screen in the pseudo-locale has no text left untranslated (issue 34)',
  (portal) => {
    let customer: SeededCustomer;
    let admin: Credentials;
    let data: string[];

    beforeAll(async () => {
      const { server } = portal;
      customer = await seedCustomer(server, { fullName: 'Casey Customer' });
      await seedSubscription(server, customer, 'pro-yearly');
      admin = server.admin;
      const catalogue = await server.app.db
        .selectFrom('plans')
        .select(['name', 'code', 'description'])
        .execute();
      const features = await server.app.db
        .selectFrom('features')
        .select(['name', 'key', 'unit', 'description'])
        .execute();
      const people = await server.app.db.selectFrom('users').select(['full_name']).execute();
      const keys = await server.app.db.selectFrom('licenses').select(['license_key']).execute();
      const machines = await server.app.db
        .selectFrom('activations')
        .select(['hardware_id', 'device_name', 'platform', 'label', 'app_version'])
        .execute();
      data = [
        PRODUCT_NAME,
        // People's names, and their first names (a greeting), and every key and its parts.
        ...people.flatMap((person) => [person.full_name ?? '', ...(person.full_name ?? '').split(' ')]),
        ...keys.flatMap((license) => [license.license_key, ...license.license_key.split('-')]),
        // The tax's own name, as the server sends it with its rate.
        'GST',
        // The names of this browser and its system, which the sessions' devices are named by.
        'Chrome',
        'Linux',
        customer.licenseKey,
        customer.hardwareId,
        ...catalogue.flatMap((plan) => [plan.name, plan.code, plan.description ?? '']),
        ...features.flatMap((feature) => [
          feature.name,
          feature.key,
          feature.unit ?? '',
          feature.description,
        ]),
        ...machines.flatMap((machine) => [
          machine.hardware_id,
          machine.device_name ?? '',
          machine.platform ?? '',
          machine.label ?? '',
          machine.app_version ?? '',
        ]),
      ];
    });

    it('the public pages', async () => {
      const page = await pseudoPage(portal);
      const problems: string[] = [];
      for (const path of PUBLIC_PATHS) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await page.waitForLoadState('networkidle');
        problems.push(...(await findings(page, path, data)));
      }
      expect(problems, problems.join('\n')).toEqual([]);
    });

    const signedIn = async (who: Credentials, screens: readonly SignedInScreen[]) => {
      const page = await pseudoPage(portal, true);
      // Signing in goes by the form's English labels; the pseudo-locale is this browser's choice,
      // which the account's own language does not override.
      await page.goto('/landing');
      await page.evaluate(choose('en'));
      await signIn(page, who.email, who.password);
      await page.evaluate(choose(PSEUDO_LANGUAGE));
      await page.reload();
      const network = trackNetwork(page);
      const context: ScreenContext = { licenseId: customer.licenseId };
      const problems: string[] = [];
      for (const screen of screens) {
        await showScreen(page, network, screen, context, /./);
        problems.push(...(await findings(page, screen.name, data)));
      }
      return problems;
    };

    it("the customer's screens", async () => {
      const problems = await signedIn(customer, [...USER_SCREENS, ...MORE_USER_SCREENS]);
      expect(problems, problems.join('\n')).toEqual([]);
    });

    it("the customer's dialogs", async () => {
      const page = await pseudoPage(portal, true);
      await page.goto('/landing');
      await page.evaluate(choose('en'));
      await signIn(page, customer.email, customer.password);
      await page.evaluate(choose(PSEUDO_LANGUAGE));
      const problems: string[] = [];
      for (const dialog of USER_DIALOGS) {
        await page.goto(dialog.path);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        // The screen's reads answered first: a button rendered again as they arrive can lose a click.
        await page.waitForLoadState('networkidle');
        await page
          .getByRole('button', { name: pseudoName(dialog.button) })
          .first()
          .click();
        const shown = page.getByRole('dialog');
        await shown.waitFor();
        await page.waitForLoadState('networkidle');
        problems.push(...(await findings(page, `dialog-${dialog.name}`, data)));
        await page.keyboard.press('Escape');
        await shown.waitFor({ state: 'hidden' });
      }
      expect(problems, problems.join('\n')).toEqual([]);
    });

    it('the admin console', async () => {
      const problems = await signedIn(admin, [...ADMIN_SCREENS, ...MORE_ADMIN_SCREENS]);
      expect(problems, problems.join('\n')).toEqual([]);
    });

    it('finds text that skipped the translation (the check can fail)', () => {
      const shown = [
        { text: 'Ĺíçéñšéš··· 3', where: 'h1' },
        { text: 'Licenses', where: 'nav' },
        { text: `${PRODUCT_NAME} ·· Ţŕíáĺ`, where: 'p' },
      ];
      expect(untranslated(shown, [PRODUCT_NAME]).map(({ where }) => where)).toEqual(['nav']);
    });
  },
  { timeout: 180_000 },
);
