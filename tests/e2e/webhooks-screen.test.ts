import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { WebhookEndpointWithSecret } from '../../src/shared/api/webhooks.js';
import { accessToken, callApiOk } from './support/seed.js';
import { photograph, showScheme } from './support/photograph.js';
import { describePortal, signIn } from './support/portal.js';

const DEVICES = [
  { name: 'desktop', options: { viewport: { width: 1280, height: 800 } } },
  {
    name: 'phone',
    options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  },
] as const;

async function noSidewaysScroll(page: Page, label: string) {
  const { scrollWidth, innerWidth } = await page.evaluate<{ scrollWidth: number; innerWidth: number }>(
    '({ scrollWidth: document.scrollingElement.scrollWidth, innerWidth: window.innerWidth })',
  );
  expect(scrollWidth, `${label} is wider than the ${innerWidth}px screen`).toBeLessThanOrEqual(innerWidth);
}

/**
 * The admin Webhooks screen with real endpoints and deliveries (a local receiver that accepts one
 * path and fails the other), photographed on a desktop and a phone, light and dark: the list, an
 * endpoint's delivery log with an attempt opened, and the add dialog; used with the keyboard.
 */
describePortal(
  'the admin Webhooks screen',
  (portal) => {
    let receiver: Server;

    beforeAll(async () => {
      receiver = createServer((request, response) => {
        request.resume();
        request.on('end', () => {
          if (request.url === '/broken') response.writeHead(500).end('{"error":"database unavailable"}');
          else response.writeHead(204).end();
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
      const server = portal.server;
      const token = await accessToken(server, server.admin);
      const create = (body: unknown) =>
        callApiOk<WebhookEndpointWithSecret>(server, {
          method: 'POST',
          path: '/admin/webhooks',
          token,
          body,
        });
      const crm = await create({
        url: `${base}/crm`,
        description: 'CRM: licenses and payments',
        event_types: ['license.created', 'license.revoked', 'payment.paid', 'payment.refunded'],
      });
      const broken = await create({
        url: `${base}/broken`,
        description: 'Data warehouse (failing)',
        event_types: ['license.created'],
      });
      await create({ url: 'https://hooks.example.com/ops', event_types: ['subscription.past_due'] });
      for (const endpoint of [crm, broken])
        await callApiOk(server, { method: 'POST', path: `/admin/webhooks/${endpoint.id}/test`, token });
      await server.app.webhookDeliveries.drain();
    });
    afterAll(async () => {
      await new Promise<void>((resolve) => receiver?.close(() => resolve()));
    });

    for (const device of DEVICES)
      it(`list, delivery log and add dialog on a ${device.name}, light and dark`, async () => {
        const page = await portal.newPage({
          ...device.options,
          colorScheme: 'light',
          reducedMotion: 'reduce',
        });
        await signIn(page, portal.server.admin.email, portal.server.admin.password);
        await page.goto('/admin/webhooks');
        await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Webhooks' }).count()).toBe(1);
        await page.getByText('Data warehouse (failing)').first().waitFor();
        for (const scheme of ['light', 'dark'] as const) {
          await showScheme(page, scheme);
          await photograph(page, `admin-webhooks-${device.name}-${scheme}`, {
            scheme,
            fullPage: true,
            accessible: true,
            shows: [page.getByRole('button', { name: 'Add endpoint' }).first()],
          });
        }
        await noSidewaysScroll(page, 'the webhooks list');

        // The failing endpoint's log: its delivery, opened with the keyboard, shows the attempt.
        await page
          .getByRole('button', { name: /^Deliveries to http:\/\/127\.0\.0\.1:\d+\/broken$/ })
          .first()
          .click();
        const drawer = page.getByRole('dialog', { name: 'Deliveries' });
        const delivery = drawer.getByRole('button', { name: /webhook\.test/ });
        await delivery.focus();
        await page.keyboard.press('Enter');
        await drawer.getByText(/Attempt 1 · HTTP 500/).waitFor();
        await expect.poll(() => drawer.getByRole('button', { name: 'Send again' }).isEnabled()).toBe(true);
        for (const scheme of ['light', 'dark'] as const) {
          await showScheme(page, scheme);
          await photograph(page, `admin-webhooks-deliveries-${device.name}-${scheme}`, {
            scheme,
            accessible: 'decided',
            shows: [
              drawer.getByText(/Attempt 1 · HTTP 500/),
              drawer.getByRole('button', { name: 'Send again' }),
            ],
          });
        }
        await page.keyboard.press('Escape');
        await drawer.waitFor({ state: 'hidden' });

        await page.getByRole('button', { name: 'Add endpoint' }).first().click();
        const dialog = page.getByRole('dialog', { name: 'Add endpoint' });
        await dialog.getByRole('checkbox', { name: /license\.created/ }).waitFor();
        for (const scheme of ['light', 'dark'] as const) {
          await showScheme(page, scheme);
          await photograph(page, `admin-webhooks-add-${device.name}-${scheme}`, {
            scheme,
            accessible: 'decided',
            shows: [dialog.getByRole('textbox', { name: 'URL' })],
          });
        }
        // Refused before anything is sent: a plain-http URL and no events.
        await dialog.getByRole('textbox', { name: 'URL' }).fill('http://example.com/hooks');
        // Enter in the field submits the form, as the keyboard would.
        await dialog.getByRole('textbox', { name: 'URL' }).press('Enter');
        await dialog.getByText('The URL must start with https://').waitFor();
        await dialog.getByText('Choose at least one event').waitFor();
        await noSidewaysScroll(page, 'the add dialog');
      });
  },
  { timeout: 180_000 },
);
