import { expect, it } from 'vitest';
import { appliedColorScheme, openPublicPage, PUBLIC_PAGES } from './support/pages.js';
import { describePortal, screenshotPath } from './support/portal.js';

/** Each public page as a person sees it: on a desktop and on a phone, each in light and dark. */
const DEVICES = [
  { name: 'desktop', options: { viewport: { width: 1280, height: 800 } } },
  {
    name: 'phone',
    options: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  },
] as const;
const SCHEMES = ['light', 'dark'] as const;

describePortal('screenshots of the public pages', (portal) => {
  for (const target of PUBLIC_PAGES) {
    it(`${target.name}: desktop and phone in light and dark, no horizontal overflow on a phone`, async () => {
      const saved: string[] = [];
      for (const device of DEVICES) {
        const page = await portal.newPage({
          ...device.options,
          colorScheme: 'light',
          reducedMotion: 'reduce',
        });
        await openPublicPage(portal, page, target);
        for (const scheme of SCHEMES) {
          // The portal follows the system scheme (no choice stored yet), so switching it restyles the page.
          await page.emulateMedia({ colorScheme: scheme });
          await expect
            .poll(() => appliedColorScheme(page), { message: `${device.name} ${scheme}` })
            .toBe(scheme);
          const path = await screenshotPath(`${target.name}-${device.name}-${scheme}`);
          await page.screenshot({ path, fullPage: true, animations: 'disabled' });
          saved.push(path);
        }
        if (device.name === 'phone') {
          const { scrollWidth, innerWidth } = await page.evaluate<{
            scrollWidth: number;
            innerWidth: number;
          }>('({ scrollWidth: document.scrollingElement.scrollWidth, innerWidth: window.innerWidth })');
          expect(
            scrollWidth,
            `${target.name} is wider than a ${innerWidth}px phone screen`,
          ).toBeLessThanOrEqual(innerWidth);
        }
        await page.context().close();
      }
      console.info(`[screenshots] ${target.name}:\n  ${saved.join('\n  ')}`);
    });
  }
});
