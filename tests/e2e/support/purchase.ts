import type { Page } from 'playwright-core';

/**
 * Buys Pro monthly on /purchase through the sandbox checkout: a one-payment purchase ('Buy Pro'),
 * or the first charge of a subscription once monthly plans are sold as subscriptions. Either
 * charge gets its invoice.
 */
export async function buyPro(page: Page) {
  await page.goto('/purchase');
  await page.getByRole('heading', { level: 1, name: 'Purchase' }).waitFor();
  await page.getByRole('button', { name: /^(Buy Pro|Subscribe — ₹999 \/ month)$/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Sandbox checkout' });
  await dialog.getByRole('button', { name: 'Pay', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  await page
    .getByRole('heading', { name: /^(Payment successful|Subscribed): your Pro license is ready$/ })
    .waitFor();
}
