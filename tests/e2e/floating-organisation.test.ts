import { randomUUID } from 'node:crypto';
import { copyFile, mkdir } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { issueLicense } from '../../src/server/licensing/index.js';
import { describePortal, screenshotPath, signIn, watchPage } from './support/portal.js';
import { planByCode } from './support/seed.js';
import { photograph, showScheme } from './support/photograph.js';

const SHOTS = '/work/tasks/shots/floatorg';

describePortal('an organisation’s floating seats', (portal) => {
  it('the owner sees the pool’s size, the members’ machines holding its seats and the daily peaks, and frees one; desktop light, phone dark', async () => {
    const server = portal.server;
    const db = server.app.db;
    const now = server.clock.now().toISOString();
    const owner = await server.createUser({ fullName: 'Olive Owner' });
    const dev = await server.createUser({ fullName: 'Dev Eloper' });
    const idOf = async (email: string) =>
      (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
    const [ownerId, devId] = [await idOf(owner.email), await idOf(dev.email)];
    const organisationId = randomUUID();
    await db
      .insertInto('organisations')
      .values({
        id: organisationId,
        name: 'Drift Studio',
        billing_details: null,
        created_by: ownerId,
        created_at: now,
        updated_at: now,
      })
      .execute();
    for (const [userId, role] of [
      [ownerId, 'owner'],
      [devId, 'member'],
    ] as const)
      await db
        .insertInto('organisation_members')
        .values({
          organisation_id: organisationId,
          user_id: userId,
          role,
          seat_assigned_at: null,
          joined_at: now,
        })
        .execute();
    // The per-seat plan made floating, as an administrator does in the package editor.
    const business = await planByCode(server, 'business-monthly');
    await db
      .updateTable('plans')
      .set({ floating_seats: 1, floating_lease_minutes: 15, floating_borrow_days: 7 })
      .where('id', '=', business.id)
      .execute();
    await issueLicense(db, server.clock, server.app.events, {
      userId: ownerId,
      plan: { ...business, floating_seats: 1 },
      organisation: { id: organisationId, seats: 3 },
    });

    // Two members' machines take seats signed in, as the desktop's portal does.
    const checkout = async (who: { email: string; password: string }, hardwareId: string, name: string) => {
      const login = await server.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login/json',
        headers: { 'x-api-key': 'dap-web-public' },
        payload: { email: who.email, password: who.password },
      });
      const token = login.json<{ access_token: string }>().access_token;
      return server.app.inject({
        method: 'POST',
        url: `/api/v1/organisations/${organisationId}/floating/checkout`,
        headers: { 'x-api-key': 'dap-web-public', authorization: `Bearer ${token}` },
        payload: { hardware_id: hardwareId, device_name: name },
      });
    };
    expect((await checkout(dev, 'hw-drift-dev-0001', 'Dev’s workstation')).statusCode).toBe(201);
    expect((await checkout(owner, 'hw-drift-own-0002', 'Olive’s laptop')).statusCode).toBe(201);

    const context = await portal.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    watchPage(page);
    await signIn(page, owner.email, owner.password);
    await page.goto(`/organisations/${organisationId}`);
    await page.getByTestId('organisation-seats').getByText('3 floating seats (at once)').waitFor();
    const section = page.getByRole('region', { name: 'Floating seats' });
    await section.getByText('2 of 3 in use now', { exact: false }).waitFor();
    const table = section.getByRole('table');
    await table.getByText('Dev’s workstation').waitFor();
    await section.locator('.recharts-surface').first().waitFor();

    await mkdir(SHOTS, { recursive: true });
    const shoot = async (name: string, fullPage = false) => {
      await photograph(page, name, fullPage ? { fullPage: true } : { target: section });
      await copyFile(await screenshotPath(name), `${SHOTS}/${name}.png`);
    };
    await showScheme(page, 'light');
    await shoot('organisation-floating-desktop-light', true);
    await page.setViewportSize({ width: 390, height: 844 });
    await showScheme(page, 'dark');
    await section.scrollIntoViewIfNeeded();
    await shoot('organisation-floating-phone-dark');
    await page.setViewportSize({ width: 1280, height: 900 });
    await showScheme(page, 'light');

    // The owner frees the member's seat by hand, with the keyboard.
    await table.getByRole('button', { name: 'Free the seat of Dev’s workstation' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Free the seat of Dev’s workstation?' });
    await dialog.getByRole('button', { name: 'Free seat', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await section.getByText('1 of 3 in use now', { exact: false }).waitFor();
    const rows = await db.selectFrom('floating_seats').select('device_name').execute();
    expect(rows.map((row) => row.device_name)).toEqual(['Olive’s laptop']);
    await context.close();
  });
});
