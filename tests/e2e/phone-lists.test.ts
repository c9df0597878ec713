import { expect, it } from 'vitest';
import { photograph } from './support/photograph.js';
import { describePortal, signIn } from './support/portal.js';
import { seedCustomer } from './support/seed.js';

/**
 * Issue 16, point 7, through the real build in Chromium on a phone-sized screen: a license's
 * machines are cards with their Deactivate button in view (no table to scroll sideways), and a
 * license key that has to wrap breaks only after a dash, never inside a group.
 */

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

/**
 * In the page: narrows the element showing `key` until it must wrap, then answers each
 * dash-separated group's line tops (one per group when no group is broken) and how many lines
 * the key took. Evaluated as a string: the test's own code has no DOM types.
 */
const keyLayout = (key: string) => `(() => {
  const key = ${JSON.stringify(key)};
  const holder = [...document.querySelectorAll('main span')].find((span) => span.textContent === key);
  if (!holder) return null;
  holder.style.display = 'inline-block';
  holder.style.width = '12ch';
  const range = document.createRange();
  const tops = [];
  let offset = 0;
  const texts = [...holder.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE);
  for (const group of key.split('-')) {
    const groupTops = new Set();
    for (let index = 0; index < group.length; index++) {
      // The character's text node and its offset in it.
      let at = offset + index;
      const node = texts.find((text) => {
        if (at < text.length) return true;
        at -= text.length;
        return false;
      });
      range.setStart(node, at);
      range.setEnd(node, at + 1);
      groupTops.add(Math.round(range.getBoundingClientRect().top));
    }
    tops.push([...groupTops]);
    offset += group.length + 1;
  }
  return { tops, lines: new Set(tops.flat()).size };
})()`;

describePortal('issue 16 point 7: lists on a phone', (portal) => {
  it('7. a license’s machines are cards with Deactivate in view, nothing scrolls sideways, and the key breaks only between groups', async () => {
    const customer = await seedCustomer(portal.server, { fullName: 'Pia Phone' });
    const page = await portal.newPage({ ...PHONE, colorScheme: 'light', reducedMotion: 'reduce' });
    await signIn(page, customer.email, customer.password);
    await page.goto(`/licenses/${customer.licenseId}`);
    await page.getByRole('heading', { level: 1 }).waitFor();

    // The machine is a card: its Deactivate button lies inside the screen once scrolled to.
    const deactivate = page.getByRole('button', { name: /^Deactivate / }).first();
    await deactivate.scrollIntoViewIfNeeded();
    const box = await deactivate.boundingBox();
    expect(box, 'the Deactivate button is laid out').not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.viewport.width);
    expect(await page.locator('main table').count(), 'no table on a phone').toBe(0);
    const { scrollWidth, innerWidth } = await page.evaluate<{ scrollWidth: number; innerWidth: number }>(
      '({ scrollWidth: document.scrollingElement.scrollWidth, innerWidth: window.innerWidth })',
    );
    expect(scrollWidth, 'no sideways scroll').toBeLessThanOrEqual(innerWidth);
    await photograph(page, 'issue16-phone-machines', {
      scheme: 'light',
      fullPage: true,
      shows: [deactivate],
    });

    // Revealed, the key is made to wrap: every group stays on one line, and it does wrap.
    await page
      .getByRole('button', { name: /show|reveal/i })
      .first()
      .click();
    await page.locator('main span', { hasText: customer.licenseKey }).first().waitFor();
    const layout = await page.evaluate<{ tops: number[][]; lines: number } | null>(
      keyLayout(customer.licenseKey),
    );
    expect(layout, `the key ${customer.licenseKey} is shown`).not.toBeNull();
    for (const [index, tops] of layout!.tops.entries())
      expect(tops, `group ${index + 1} of ${customer.licenseKey} is on one line`).toHaveLength(1);
    expect(layout!.lines, 'the narrowed key wraps').toBeGreaterThan(1);
    await page.context().close();
  });
});
