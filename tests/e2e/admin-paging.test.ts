import type { Locator, Page } from 'playwright-core';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { describePortal, pathOf, screenshotPath, signIn, watchPage } from './support/portal.js';
import { accessToken, callApiOk, type SeededLists, seedAdminLists } from './support/seed.js';

/**
 * Issue 6, "Must show": every admin list pages correctly against 1 000 seeded rows. Each list is
 * driven like a person would: the first page, "Next page", the last page's button, "Rows per
 * page", a reload, Back, and a search; the totals are the server's own.
 */

interface AdminList {
  name: keyof SeededLists['searches'];
  /** The screen's address. */
  path: string;
  /** The API list the screen shows (below /api/v1), for the server's own total. */
  api: string;
  /** The table's accessible name and the "Showing … of N <noun>" line's noun. */
  table: string;
  noun: string;
  search: string;
}

const LISTS: readonly AdminList[] = [
  {
    name: 'users',
    path: '/admin/users',
    api: '/admin/users',
    table: 'Users',
    noun: 'users',
    search: 'Search users',
  },
  {
    name: 'licenses',
    path: '/admin/licenses',
    api: '/admin/licenses',
    table: 'Licenses',
    noun: 'licenses',
    search: 'Search licenses',
  },
  {
    name: 'payments',
    path: '/admin/payments',
    api: '/payments/admin/payments',
    table: 'Payments',
    noun: 'payments',
    search: 'Search payments',
  },
  {
    name: 'features',
    path: '/admin/features',
    api: '/admin/features',
    table: 'Features',
    noun: 'features',
    search: 'Search features',
  },
  {
    name: 'packages',
    path: '/admin/packages',
    api: '/plans',
    table: 'Packages',
    noun: 'packages',
    search: 'Search packages',
  },
  {
    name: 'security',
    path: '/admin/security',
    api: '/admin/security-events',
    table: 'Security events',
    noun: 'events',
    search: 'Search events',
  },
];

const SEEDED = 1000;
/** The browser's locale is pinned, so "1,001" is how the page writes a total. */
const number = new Intl.NumberFormat('en-US');

/**
 * The text of every row, once the table shows rows for which `check` holds and is not loading.
 * Polling on the condition itself: right after a click the old rows may still be on screen
 * for a moment (the "Showing" line follows the URL at once, the rows follow the answer).
 */
async function rowsWhen(table: Locator, check: (rows: string[]) => boolean, what: string): Promise<string[]> {
  let rows: string[] = [];
  await expect
    .poll(
      async () => {
        if ((await table.getAttribute('aria-busy')) === 'true') return false;
        rows = await table.locator('tbody tr').allInnerTexts();
        return check(rows);
      },
      { message: `${what} (last seen ${rows.length} rows)`, timeout: 10_000 },
    )
    .toBe(true);
  return rows;
}

const sameRows = (expected: string[]) => (rows: string[]) =>
  rows.length === expected.length && rows.every((row, index) => row === expected[index]);

const queryOf = (page: Page) => new URL(page.url()).searchParams;

describePortal(
  'every admin list pages through 1 000 seeded rows',
  (portal) => {
    let seeded: SeededLists;
    let token: string;
    /** The page of the test running, for a failure screenshot. */
    let current: Page | undefined;

    beforeAll(async () => {
      const started = Date.now();
      seeded = await seedAdminLists(portal.server, SEEDED);
      console.info(`[admin-paging] seeded ${SEEDED} rows into 6 tables in ${Date.now() - started} ms`);
      token = await accessToken(portal.server, portal.server.admin);
    });

    /** One signed-in administrator's page for every list (signing in needs a running test). */
    let signedIn: Promise<Page> | undefined;
    const adminPage = () =>
      (signedIn ??= (async () => {
        // Closed with the file's browser; not a per-test context, so it outlives each test.
        const context = await portal.browser.newContext({
          baseURL: portal.server.baseUrl,
          viewport: { width: 1280, height: 900 },
          locale: 'en-US',
          reducedMotion: 'reduce',
        });
        context.setDefaultTimeout(10_000);
        const opened = await context.newPage();
        watchPage(opened);
        await signIn(opened, portal.server.admin.email, portal.server.admin.password);
        return opened;
      })());

    afterEach(async (context) => {
      if (context.task.result?.state !== 'fail' || !current) return;
      const path = await screenshotPath(`failure-admin-paging-${context.task.name.split(':')[0]}`);
      await current.screenshot({ path, fullPage: true }).catch(() => undefined);
      console.info(`[e2e] failure screenshot: ${path} (${current.url()})`);
    });

    /** The server's total for the list (and the search), asked directly. */
    const serverTotal = async (list: AdminList, search?: string) => {
      const query = new URLSearchParams({ perPage: '1', ...(search ? { search } : {}) });
      const body = await callApiOk<{ total: number }>(portal.server, { path: `${list.api}?${query}`, token });
      return body.total;
    };

    for (const list of LISTS)
      it(`${list.path}: pages of 10, next, last, 50 per page, reload, Back and search`, async () => {
        const page = await adminPage();
        current = page;
        await page.goto(list.path);
        const table = page.getByRole('table', { name: list.table, exact: true });
        const showing = (first: number, last: number, total: number) =>
          page.getByText(
            `Showing ${number.format(first)}–${number.format(last)} of ${number.format(total)} ${list.noun}`,
            { exact: true },
          );

        // First page: 10 rows of the server's total (the seeded thousand and the rows the app made).
        const total = await serverTotal(list);
        expect(total).toBeGreaterThanOrEqual(SEEDED);
        await showing(1, 10, total).waitFor();
        const firstPage = await rowsWhen(table, (rows) => rows.length === 10, 'page 1 holds 10 rows');

        // Next page: rows 11–20, none of them on page 1, and the page in the URL.
        await page.getByRole('button', { name: 'Next page' }).click();
        await showing(11, 20, total).waitFor();
        expect(queryOf(page).get('page')).toBe('2');
        await rowsWhen(
          table,
          (rows) => rows.length === 10 && rows.every((row) => !firstPage.includes(row)),
          'page 2 holds 10 rows, none of them on page 1',
        );

        // The last page's own button: the remainder.
        const lastPage = Math.ceil(total / 10);
        const remainder = total - (lastPage - 1) * 10;
        await page.getByRole('button', { name: `Page ${lastPage}`, exact: true }).click();
        await showing((lastPage - 1) * 10 + 1, total, total).waitFor();
        expect(queryOf(page).get('page')).toBe(String(lastPage));
        const lastRows = await rowsWhen(
          table,
          (rows) => rows.length === remainder && rows.every((row) => !firstPage.includes(row)),
          `page ${lastPage} holds the last ${remainder} rows`,
        );

        // 50 rows per page: back to the first page, 50 rows, the size in the URL.
        await page.getByRole('combobox', { name: 'Rows per page' }).selectOption('50');
        await showing(1, 50, total).waitFor();
        expect(queryOf(page).get('perPage')).toBe('50');
        expect(queryOf(page).get('page')).toBeNull();
        const fifty = await rowsWhen(
          table,
          (rows) => rows.length === 50 && sameRows(firstPage)(rows.slice(0, 10)),
          '50 rows, starting with page 1',
        );

        // A reload keeps the state the URL holds.
        await page.reload();
        // A reload starts the app afresh (session, chunks, the list): more time than a click.
        await showing(1, 50, total).waitFor({ timeout: 20_000 });
        await rowsWhen(table, sameRows(fifty), 'the same 50 rows after the reload');
        await expect
          .poll(() => page.getByRole('combobox', { name: 'Rows per page' }).inputValue())
          .toBe('50');

        // Back: the last page of 10 again.
        await page.goBack();
        await showing((lastPage - 1) * 10 + 1, total, total).waitFor();
        expect(queryOf(page).get('page')).toBe(String(lastPage));
        await rowsWhen(table, sameRows(lastRows), `page ${lastPage} again after Back`);

        // A search narrows the total to the server's count for it, and goes to the URL.
        const term = seeded.searches[list.name];
        const narrowed = await serverTotal(list, term);
        expect(narrowed).toBeGreaterThan(0);
        expect(narrowed).toBeLessThan(10);
        const field = page.getByRole('searchbox', { name: list.search });
        await field.fill(term);
        await field.press('Enter');
        await showing(1, narrowed, narrowed).waitFor();
        expect(queryOf(page).get('search')).toBe(term);
        expect(queryOf(page).get('page')).toBeNull();
        await rowsWhen(
          table,
          // Not the rows of the last page shown before (seeded row 42 is nowhere near the end).
          (rows) => rows.length === narrowed && !sameRows(lastRows)(rows),
          `the ${narrowed} rows found`,
        );
        expect(pathOf(page)).toBe(list.path);
      });
  },
  { timeout: 60_000 },
);
