import { randomUUID } from 'node:crypto';
import type { Locator, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { API_BASE_PATH } from '../../src/shared/routes.js';
import { issueLicense } from '../../src/server/licensing/licenses/issue.js';
import { createPlan, giveLicense } from '../server/helpers/license-helpers.js';
import { addMember } from '../server/helpers/organisation-seat-helpers.js';
import { WEB_API_KEY, type TestServer } from '../support/test-server.js';
import { photograph, showScheme } from './support/photograph.js';
import { describePortal, signIn } from './support/portal.js';
import type { PortalServer } from './support/server.js';
import { accessToken } from './support/seed.js';
import { DEVICES } from './support/signed-in-pages.js';

/*
 * Issue 30's dialogs and screens in Chromium against the real server, at desktop and phone width,
 * light and dark: the Usage page's "Buy credits" dialog, an organisation owner's usage caps of a
 * member, and the administrators' Usage list. Each opens from the keyboard, keeps focus inside while
 * open and gives it back on Escape; the pictures (test-results/screenshots/) pass photograph's
 * checks: the scheme applied, nothing wider than the screen, readable contrast.
 */

const SCHEMES = ['light', 'dark'] as const;

async function userId(server: PortalServer, email: string) {
  const row = await server.app.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return { id: row.id };
}

async function report(server: PortalServer, token: string, licenseId: string, amount: number) {
  const response = await fetch(`${server.baseUrl}${API_BASE_PATH}/licenses/${licenseId}/usage/events`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': WEB_API_KEY,
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ events: [{ id: randomUUID(), feature: 'ai_chat', amount }] }),
  });
  expect(response.status).toBe(200);
}

/** The DOM an element's function sees (these tests compile without the DOM's types). */
type InPage = { contains(other: unknown): boolean; ownerDocument: { activeElement: unknown } };

/** Focus is inside the dialog while it is open. */
const focusInside = (dialog: Locator) =>
  dialog.evaluate((element) => {
    const node = element as unknown as InPage;
    return node.contains(node.ownerDocument.activeElement);
  });

/** The element has the focus. */
const focused = (locator: Locator) =>
  locator.evaluate((element) => {
    const node = element as unknown as InPage;
    return node.ownerDocument.activeElement === node;
  });

/** Opens the dialog from the keyboard, checks focus, photographs it per scheme, closes it with Escape. */
async function dialogByKeyboard(page: Page, opener: Locator, title: string, picture: string) {
  // An action shows before the data that makes it available (a member's caps wait for the usage
  // read), and Enter on it while it is aria-disabled opens nothing.
  await expect.poll(() => opener.getAttribute('aria-disabled'), { timeout: 30_000 }).toBeNull();
  await opener.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.waitFor();
  await expect.poll(() => focusInside(dialog)).toBe(true);
  // Tab stays within the dialog.
  for (let step = 0; step < 6; step += 1) {
    await page.keyboard.press('Tab');
    expect(await focusInside(dialog)).toBe(true);
  }
  for (const scheme of SCHEMES) {
    await showScheme(page, scheme);
    await page.mouse.move(0, 0);
    await photograph(page, `${picture}-${scheme}`, { scheme, target: dialog, accessible: 'decided' });
  }
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  await expect.poll(() => focused(opener)).toBe(true);
}

describePortal(
  'issue 30: the usage dialogs and the administrators’ Usage screen, desktop and phone, light and dark',
  (portal) => {
    it('Buy credits, a member’s usage caps and the admin Usage list read and work at both widths in both schemes', async () => {
      const { server } = portal;
      // The license helpers read only the app and the clock of a server.
      const s = { app: server.app, clock: server.clock } as unknown as TestServer;

      // A customer whose plan sells 500-message packs of AI chat, with some use this month.
      const buyer = await server.createUser({ fullName: 'Bea Buyer' });
      const plan = await createPlan(s, {
        interval: 'month',
        price: 99_900,
        features: { ai_chat: 1000 },
        overage: { ai_chat: { policy: 'bill', price_minor: 250, per_units: 10, cap: null } },
        packs: { ai_chat: { units: 500, price_minor: 49_900 } },
      });
      const license = await giveLicense(s, await userId(server, buyer.email), plan);
      await report(server, await accessToken(server, buyer), license.id, 1234);

      // An organisation pooling 5,000 messages a month: its owner caps a member.
      const owner = await server.createUser({ fullName: 'Olu Owner' });
      const mateCredentials = await server.createUser({ fullName: 'Maximiliana Wolfeschlegelsteinhausen' });
      const ownerId = await userId(server, owner.email);
      const mate = await userId(server, mateCredentials.email);
      const teamPlan = await createPlan(s, { seats: 10, features: { ai_chat: 5000 } });
      const organisationId = randomUUID();
      const now = server.clock.now().toISOString();
      await server.app.db
        .insertInto('organisations')
        .values({
          id: organisationId,
          name: 'Northwind Research Cooperative',
          billing_details: null,
          created_by: ownerId.id,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await addMember(s, { id: organisationId }, ownerId, { role: 'owner' });
      await addMember(s, { id: organisationId }, mate, { role: 'member' });
      const team = await issueLicense(server.app.db, server.clock, server.app.events, {
        userId: ownerId.id,
        plan: teamPlan,
        organisation: { id: organisationId, seats: 10 },
      });
      await report(server, await accessToken(server, mateCredentials), team.id, 321);

      for (const device of DEVICES) {
        // Buy credits, from the Usage page.
        const page = await portal.newPage({ ...device.options, locale: 'en-US', reducedMotion: 'reduce' });
        await signIn(page, buyer.email, buyer.password);
        await page.goto('/usage');
        await page.getByRole('article', { name: 'AI chat usage' }).waitFor();
        await dialogByKeyboard(
          page,
          page.getByRole('button', { name: 'Buy credits' }),
          'Buy credits',
          `usage-buy-credits-${device.name}`,
        );
        await page.context().close();

        // A member's usage caps, from the organisation's members.
        const ownerPage = await portal.newPage({
          ...device.options,
          locale: 'en-US',
          reducedMotion: 'reduce',
        });
        await signIn(ownerPage, owner.email, owner.password);
        await ownerPage.goto(`/organisations/${organisationId}`);
        await dialogByKeyboard(
          ownerPage,
          ownerPage.getByRole('button', { name: 'Set usage caps of Maximiliana Wolfeschlegelsteinhausen' }),
          'Usage caps of Maximiliana Wolfeschlegelsteinhausen',
          `usage-member-caps-${device.name}`,
        );
        await ownerPage.context().close();

        // The administrators' Usage list, with both customers on it.
        const adminPage = await portal.newPage({
          ...device.options,
          locale: 'en-US',
          reducedMotion: 'reduce',
        });
        await signIn(adminPage, server.admin.email, server.admin.password);
        await adminPage.goto('/admin/usage');
        await adminPage.getByRole('heading', { level: 1, name: 'Usage' }).waitFor();
        const customer = adminPage.getByText(buyer.email).first();
        await customer.waitFor();
        await adminPage.getByText('Northwind Research Cooperative').first().waitFor();
        for (const scheme of SCHEMES) {
          await showScheme(adminPage, scheme);
          await adminPage.mouse.move(0, 0);
          await photograph(adminPage, `admin-usage-${device.name}-${scheme}`, {
            scheme,
            fullPage: true,
            accessible: true,
            shows: [customer],
          });
        }
        await adminPage.context().close();
      }
    });
  },
  { timeout: 240_000 },
);
