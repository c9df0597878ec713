import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { describePortal, expectPath, signIn, watchPage } from './support/portal.js';
import { accessToken, callApiOk, planByCode } from './support/seed.js';
import type { Credentials } from './support/server.js';

/**
 * Issue 6, "Must show": a license activated on a machine, the seat limit exceeded on a second
 * machine (clearly said), a seat freed on the license page, and the second machine activated.
 * Each machine is its own browser context with its own `hardware_id` (on the web, one per browser) and
 * its own system, so the license's machine list tells them apart.
 */

const MACHINES = {
  a: {
    hardwareId: `hw-machine-a-${randomBytes(6).toString('hex')}`,
    userAgent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    name: 'Chrome on Windows',
  },
  b: {
    hardwareId: `hw-machine-b-${randomBytes(6).toString('hex')}`,
    userAgent:
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    name: 'Chrome on macOS',
  },
} as const;

describePortal('the seat limit in the browser', (portal) => {
  /** A signed-in browser on one machine. */
  async function machine(which: keyof typeof MACHINES, user: Credentials): Promise<Page> {
    const { hardwareId, userAgent } = MACHINES[which];
    const context = await portal.newContext({ userAgent, viewport: { width: 1280, height: 900 } });
    await context.addInitScript({
      content: `localStorage.setItem('hardware_id', ${JSON.stringify(hardwareId)});`,
    });
    const page = await context.newPage();
    watchPage(page);
    await signIn(page, user.email, user.password);
    return page;
  }

  /** "Activate by key" on /licenses. */
  async function activateByKey(page: Page, key: string) {
    await page.goto('/licenses');
    const form = page.getByRole('region', { name: 'Activate by key' });
    await form.getByRole('textbox', { name: 'License key' }).fill(key);
    await form.getByRole('button', { name: 'Activate', exact: true }).click();
    return form;
  }

  it('activates on machine A, refuses machine B at the seat limit, frees A on the license page, then activates B', async () => {
    const server = portal.server;
    const user = await server.createUser({ fullName: 'Sam Seats' });
    const { id: userId } = await server.app.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', user.email)
      .executeTakeFirstOrThrow();
    // A one-seat license, made by an administrator through the admin API.
    const pro = await planByCode(server, 'pro-monthly');
    const license = await callApiOk<{ license_id: string; license_key: string; max_activations: number }>(
      server,
      {
        method: 'POST',
        path: '/admin/licenses',
        token: await accessToken(server, server.admin),
        body: { user_id: userId, plan_id: pro.id, max_activations: 1 },
      },
    );
    expect(license.max_activations).toBe(1);
    const activeSeats = async () =>
      (
        await server.app.db
          .selectFrom('activations')
          .select('hardware_id')
          .where('license_id', '=', license.license_id)
          .where('deactivated_at', 'is', null)
          .execute()
      ).map((row) => row.hardware_id);

    // Machine A takes the one seat.
    const a = await machine('a', user);
    await activateByKey(a, license.license_key);
    await a.getByText('This machine is activated').first().waitFor();
    expect(await activeSeats()).toEqual([MACHINES.a.hardwareId]);

    // Machine B is refused, and told why in so many words, with the way out.
    const b = await machine('b', user);
    const form = await activateByKey(b, license.license_key);
    await form.getByText('All seats of this license are in use').waitFor();
    const message = await form.getByTestId('activation-error').innerText();
    expect(message).toContain('already active on 1 of 1');
    expect(message).toContain('seat limit 1');
    expect(await activeSeats()).toEqual([MACHINES.a.hardwareId]);

    // B frees A's seat on the license's page.
    await form.getByRole('link', { name: 'Free a seat' }).click();
    await expectPath(b, `/licenses/${license.license_id}`);
    await b.getByRole('heading', { level: 1, name: 'Pro license' }).waitFor();
    const machines = b.getByRole('table', { name: 'Machines' });
    await machines.getByText(MACHINES.a.name).waitFor();
    await machines.getByRole('button', { name: `Deactivate ${MACHINES.a.name}` }).click();
    const confirm = b.getByRole('dialog', { name: `Deactivate ${MACHINES.a.name}?` });
    await confirm.getByRole('button', { name: 'Deactivate', exact: true }).click();
    await confirm.waitFor({ state: 'hidden' });
    await b.getByText('Machine deactivated').first().waitFor();
    await b.getByTestId('no-machines').waitFor();
    expect(await activeSeats()).toEqual([]);

    // Now B activates.
    await activateByKey(b, license.license_key);
    await b.getByText('This machine is activated').first().waitFor();
    expect(await activeSeats()).toEqual([MACHINES.b.hardwareId]);
    const row = await server.app.db
      .selectFrom('activations')
      .select(['deactivated_reason', 'device_name'])
      .where('license_id', '=', license.license_id)
      .where('hardware_id', '=', MACHINES.a.hardwareId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ deactivated_reason: 'user', device_name: MACHINES.a.name });
  });
});
