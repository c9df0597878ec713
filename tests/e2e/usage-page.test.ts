import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { UsageBatchResponse } from '../../src/shared/api/usage.js';
import { utc } from '../../src/shared/dates.js';
import { API_BASE_PATH } from '../../src/shared/routes.js';
import { createPlan, giveLicense } from '../server/helpers/license-helpers.js';
import type { TestServer } from '../support/test-server.js';
import { WEB_API_KEY } from '../support/test-server.js';
import { photograph, showScheme } from './support/photograph.js';
import { describePortal, signIn } from './support/portal.js';
import { accessToken } from './support/seed.js';
import { DEVICES } from './support/signed-in-pages.js';

/*
 * Issue 30, point 6 in Chromium against the real server: a customer whose plan meters AI chat
 * (100 messages a month, then ₹2.50 per 10) reports use over HTTP the way the desktop app does, and
 * the Usage page's numbers, projected overage, chart summary and table of days agree with what was
 * reported. Pictures at desktop and phone width, light and dark, land in test-results/screenshots/.
 */

type Event = { id: string; feature: string; amount: number; occurred_at: string };

/** What the app reports: today's use, and (past the month's first hours) some on its first day. */
function reportedEvents(now: Date): Event[] {
  const monthStart = utc(now).startOf('month');
  const early = now.getTime() - monthStart.valueOf() > 2 * 3_600_000 ? monthStart.add(1, 'hour') : utc(now);
  return [
    { id: 'chat-1', feature: 'ai_chat', amount: 10, occurred_at: early.toISOString() },
    { id: 'chat-2', feature: 'ai_chat', amount: 40, occurred_at: now.toISOString() },
    { id: 'chat-3', feature: 'ai_chat', amount: 50, occurred_at: now.toISOString() },
    { id: 'chat-4', feature: 'ai_chat', amount: 23, occurred_at: now.toISOString() },
  ];
}

/** The day as the portal writes it on the chart's axis and in the table ("Dec 4"). */
const dayLabel = (iso: string) =>
  new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date(iso));

const flat = async (page: Page, text: Promise<string>) => (await text).replace(/\s+/g, ' ').trim();

describePortal(
  'issue 30: the Usage page',
  (portal) => {
    it('use reported through POST /licenses/{id}/usage/events reads the same on the page: numbers, overage, chart and days', async () => {
      const { server } = portal;
      const credentials = await server.createUser({ fullName: 'Uma Usage' });
      const user = await server.app.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', credentials.email)
        .executeTakeFirstOrThrow();
      // The license helpers read only the app and the clock of a server.
      const s = { app: server.app, clock: server.clock } as unknown as TestServer;
      const plan = await createPlan(s, {
        interval: 'month',
        price: 99_900,
        features: { ai_chat: 100 },
        overage: { ai_chat: { policy: 'bill', price_minor: 250, per_units: 10, cap: null } },
      });
      const license = await giveLicense(s, user, plan);

      // Reported over HTTP, as the desktop app does; sent twice, it counts once.
      const events = reportedEvents(server.clock.now());
      const token = await accessToken(server, credentials);
      for (const attempt of [1, 2]) {
        const response = await fetch(
          `${server.baseUrl}${API_BASE_PATH}/licenses/${license.id}/usage/events`,
          {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              'x-api-key': WEB_API_KEY,
              authorization: `Bearer ${token}`,
            },
            body: JSON.stringify({ events }),
          },
        );
        expect(response.status).toBe(200);
        const answer = (await response.json()) as UsageBatchResponse;
        expect(answer.counted).toBe(attempt === 1 ? 4 : 0);
      }
      const total = events.reduce((sum, event) => sum + event.amount, 0);
      expect(total).toBe(123);
      const byDay = new Map<string, number>();
      for (const event of events) {
        const label = dayLabel(event.occurred_at);
        byDay.set(label, (byDay.get(label) ?? 0) + event.amount);
      }

      for (const device of DEVICES) {
        const page = await portal.newPage({ ...device.options, locale: 'en-US' });
        await signIn(page, credentials.email, credentials.password);
        await page.goto('/usage');
        await page.getByRole('heading', { level: 1, name: 'Usage' }).waitFor();
        const card = page.getByRole('article', { name: 'AI chat usage' });
        await card.waitFor();

        // 123 of 100: 23 past the allowance, billed per 10, a part of a block in full: 3 × ₹2.50.
        expect(await flat(page, card.innerText())).toContain('123 of 100 messages this month');
        await card.getByText('Past the allowance: 23 messages, billed at ₹2.50 per 10 messages.').waitFor();
        expect(await card.getByTestId('projected-overage').innerText()).toBe('₹7.50');
        const busiest = [...byDay].sort((a, b) => b[1] - a[1])[0]!;
        expect(await card.getByTestId('usage-chart-summary').textContent()).toBe(
          `AI chat: 123 messages in total, most on ${busiest[0]} (${busiest[1]}).`,
        );
        // The bars are drawn, one a day of the period so far.
        await card.locator('.recharts-bar-rectangle').first().waitFor();

        // The table of days, opened from the keyboard, agrees with what was reported.
        await card.getByRole('button', { name: 'Show daily numbers' }).focus();
        await page.keyboard.press('Enter');
        const table = card.getByRole('table', { name: 'AI chat per day this period' });
        const rows = table.locator('tbody tr');
        expect(await rows.count()).toBe(byDay.size);
        for (const [label, amount] of byDay)
          expect(await flat(page, rows.filter({ hasText: label }).innerText())).toBe(`${label} ${amount}`);
        expect(await flat(page, table.locator('tfoot tr').innerText())).toBe(`Total ${total}`);

        // This plan sells no credit pack: the button is shown, disabled, with why.
        const buy = page.getByRole('button', { name: 'Buy credits' });
        expect(await buy.isDisabled()).toBe(true);
        await page.getByText('This plan sells no credit packs.', { exact: false }).waitFor();

        for (const scheme of ['light', 'dark'] as const) {
          await showScheme(page, scheme);
          await page.mouse.move(0, 0);
          await photograph(page, `usage-page-${device.name}-${scheme}`, {
            scheme,
            fullPage: true,
            accessible: true,
            shows: [card.getByTestId('projected-overage'), table],
          });
        }
      }
    });
  },
  { timeout: 180_000 },
);
