import type { BrowserContextOptions, Locator, Page } from 'playwright-core';
import { signIn } from './portal.js';
import type { Credentials } from './server.js';

// What the browser tests of an organisation's page share: the two screens they look at, and the
// way to one of the page's sections as its owner.

export const DESKTOP: BrowserContextOptions = {
  viewport: { width: 1280, height: 900 },
  reducedMotion: 'reduce',
};
export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
  reducedMotion: 'reduce',
};

/** Signs `owner` in, opens the organisation's page and answers its card headed `heading`, in view. */
export async function ownersOrganisationSection(
  page: Page,
  owner: Credentials,
  organisationId: string,
  heading: string,
): Promise<Locator> {
  await signIn(page, owner.email, owner.password);
  await page.goto(`/organisations/${organisationId}`);
  const section = page
    .locator('.mantine-Card-root')
    .filter({ has: page.getByRole('heading', { name: heading }) });
  await section.scrollIntoViewIfNeeded();
  return section;
}
