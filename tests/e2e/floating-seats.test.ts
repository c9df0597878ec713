import { randomUUID } from 'node:crypto';
import { copyFile, mkdir } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { issueLicense } from '../../src/server/licensing/index.js';
import { describePortal, screenshotPath, signIn, watchPage } from './support/portal.js';
import { planByCode } from './support/seed.js';
import { photograph, showScheme } from './support/photograph.js';

const DAY_MS = 86_400_000;

describePortal('a floating license’s page', (portal) => {
  it('shows the machines holding its seats and the daily peaks, frees a seat by hand; desktop and phone, light and dark', async () => {
    const server = portal.server;
    const user = await server.createUser({ fullName: 'Flo Ating' });
    const { id: userId } = await server.app.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', user.email)
      .executeTakeFirstOrThrow();
    const pro = await planByCode(server, 'pro-monthly');
    const plan = {
      ...pro,
      id: randomUUID(),
      code: `floating-${randomUUID().slice(0, 6)}`,
      name: 'Team floating',
      floating_seats: 3,
      floating_lease_minutes: 15,
      floating_borrow_days: 7,
    };
    await server.app.db.insertInto('plans').values(plan).execute();
    const license = await issueLicense(server.app.db, server.clock, server.app.events, {
      userId,
      plan,
      subscriptionId: null,
    });
    // Earlier days' peaks, as checkouts on those days left them.
    const today = Date.parse(`${server.clock.now().toISOString().slice(0, 10)}T00:00:00.000Z`);
    await server.app.db
      .insertInto('floating_peaks')
      .values(
        [1, 2, 3, 3, 2, 1, 3, 2].map((peak, index) => ({
          license_id: license.id,
          day: new Date(today - (index + 1) * DAY_MS).toISOString().slice(0, 10),
          peak,
        })),
      )
      .execute();
    const checkout = (hardwareId: string, name: string, path = 'checkout', extra = {}) =>
      server.app.inject({
        method: 'POST',
        url: `/api/v1/licensing/floating/${path}`,
        headers: { 'x-api-key': 'dap-web-public' },
        payload: { license_key: license.license_key, hardware_id: hardwareId, device_name: name, ...extra },
      });
    expect((await checkout('hw-floating-ann-0001', 'Ann’s laptop')).statusCode).toBe(201);
    expect((await checkout('hw-floating-bob-0002', 'Build server', 'borrow', { days: 3 })).statusCode).toBe(
      201,
    );

    const context = await portal.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    watchPage(page);
    await signIn(page, user.email, user.password);
    await page.goto(`/licenses/${license.id}`);
    const section = page.getByRole('region', { name: 'Floating seats' });
    await section.getByText('2 of 3 in use now', { exact: false }).waitFor();
    const table = section.getByRole('table');
    await table.getByText('Ann’s laptop').waitFor();
    await table.getByText('Borrowed').waitFor();
    await section.getByRole('figure', { name: /Most seats in use at once/ }).waitFor();
    await section.locator('.recharts-surface').first().waitFor();

    await mkdir('/tmp/floating', { recursive: true });
    const shoot = async (name: string) => {
      await section.scrollIntoViewIfNeeded();
      await photograph(page, name, { target: section });
      await copyFile(await screenshotPath(name), `/tmp/floating/${name}.png`);
    };
    for (const scheme of ['light', 'dark'] as const) {
      await showScheme(page, scheme);
      await page.setViewportSize({ width: 1280, height: 900 });
      await shoot(`floating-seats-desktop-${scheme}`);
      await page.setViewportSize({ width: 390, height: 844 });
      await shoot(`floating-seats-phone-${scheme}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await showScheme(page, 'light');

    // The owner frees Ann's seat by hand, with the keyboard.
    await table.getByRole('button', { name: 'Free the seat of Ann’s laptop' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Free the seat of Ann’s laptop?' });
    await dialog.getByRole('button', { name: 'Free seat', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await section.getByText('1 of 3 in use now', { exact: false }).waitFor();
    const rows = await server.app.db
      .selectFrom('floating_seats')
      .select('device_name')
      .where('license_id', '=', license.id)
      .execute();
    expect(rows.map((row) => row.device_name)).toEqual(['Build server']);
    await context.close();
  });
});
