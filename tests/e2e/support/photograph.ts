import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { appliedColorScheme } from './pages.js';
import { screenshotPath } from './portal.js';
import { screenProblems, sidewaysScroll } from './signed-in-pages.js';

/**
 * A screenshot alone proves nothing: nothing compares it. Every picture the e2e tests save for a
 * human goes through `photograph`, which first asserts what such a picture is taken to show — the
 * colour scheme the test asked for, really applied (a dark page background with readable text in
 * dark, a light one in light), nothing wider than the screen, the elements the picture is about
 * visible and within the screen's width, and, where the test claims the screen is readable, issue
 * 6's checks (axe-core, contrast, controls' 3:1). Pixel comparisons stay in screen-baselines.test.ts.
 */

export type Scheme = 'light' | 'dark';

export interface PhotographOptions {
  /** The scheme the test set; when left out, the one the page applied is checked for consistency. */
  scheme?: Scheme;
  fullPage?: boolean;
  /** Photograph this element only; it must be visible and within the screen's width. */
  target?: Locator;
  /** What the picture is about: each must be visible and within the screen's width. */
  shows?: readonly Locator[];
  /**
   * Also issue 6's checks (screenProblems). 'decided': only what axe can decide is judged, not the
   * text whose contrast it cannot (under a drawer's or dialog's overlay, over the landing page's
   * gradients).
   */
  accessible?: boolean | 'decided';
}

/*
 * Runs in the page (as source text: these tests compile without the DOM's types): the page's
 * background (body over html over white) and the body text's colour, with WCAG's luminance and
 * contrast ratio.
 */
const PALETTE = `(() => {
  const parse = (value) => {
    const parts = (value.match(/[\\d.]+/g) || []).map(Number);
    return [parts[0] || 0, parts[1] || 0, parts[2] || 0, parts.length > 3 ? parts[3] : 1];
  };
  const over = (top, bottom) => [0, 1, 2].map((i) => top[i] * top[3] + bottom[i] * (1 - top[3])).concat(1);
  const channel = (c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  let background = [255, 255, 255, 1];
  for (const element of [document.documentElement, document.body])
    background = over(parse(getComputedStyle(element).backgroundColor), background);
  const text = over(parse(getComputedStyle(document.body).color), background);
  const [high, low] = [luminance(background), luminance(text)].sort((a, b) => b - a);
  return { background: luminance(background), contrast: (high + 0.05) / (low + 0.05) };
})()`;

/** Dark backgrounds lie below this luminance, light ones above 1 − it (Mantine's are ~0.01 and 1). */
const DARK_LUMINANCE = 0.2;

/** The problems a picture named `label` of the page as it is now would show; none when it is right. */
export async function pictureProblems(
  page: Page,
  label: string,
  options: PhotographOptions = {},
): Promise<string[]> {
  const problems: string[] = [];
  const applied = await appliedColorScheme(page);
  if (applied !== 'light' && applied !== 'dark')
    problems.push(`${label}: no colour scheme applied (${applied})`);
  else if (options.scheme && applied !== options.scheme)
    problems.push(`${label}: the ${applied} scheme applied instead of ${options.scheme}`);
  const scheme = options.scheme ?? (applied === 'dark' ? 'dark' : 'light');
  const palette = await page.evaluate<{ background: number; contrast: number }>(PALETTE);
  const backgroundFits =
    scheme === 'dark' ? palette.background < DARK_LUMINANCE : palette.background > 1 - DARK_LUMINANCE;
  if (!backgroundFits)
    problems.push(
      `${label}: the page background's luminance ${palette.background.toFixed(2)} is not ${scheme}`,
    );
  if (palette.contrast < 4.5)
    problems.push(
      `${label}: body text at ${palette.contrast.toFixed(2)}:1 against the background (4.5:1 needed)`,
    );
  const scroll = await sidewaysScroll(page, label);
  if (scroll) problems.push(scroll);
  const innerWidth = await page.evaluate<number>('window.innerWidth');
  for (const locator of [...(options.target ? [options.target] : []), ...(options.shows ?? [])]) {
    const box = (await locator.isVisible()) ? await locator.boundingBox() : null;
    if (!box) problems.push(`${label}: ${locator} is not visible`);
    // Half a pixel for sub-pixel layout.
    else if (box.x < -0.5 || box.x + box.width > innerWidth + 0.5)
      problems.push(
        `${label}: ${locator} lies outside the ${innerWidth}px screen (x ${box.x}, width ${box.width})`,
      );
  }
  if (options.accessible) {
    const found = await screenProblems(page, label, scheme);
    problems.push(
      ...(options.accessible === 'decided'
        ? found.filter((problem) => !problem.includes('contrast undecided'))
        : found),
    );
  }
  return problems;
}

/**
 * Asserts the picture's claims (pictureProblems), then saves it as
 * test-results/screenshots/`name`.png for a human to look at.
 */
export async function photograph(page: Page, name: string, options: PhotographOptions = {}): Promise<void> {
  const problems = await pictureProblems(page, name, options);
  expect(problems, problems.join('\n')).toEqual([]);
  const path = await screenshotPath(name);
  if (options.target) await options.target.screenshot({ path, animations: 'disabled' });
  else await page.screenshot({ path, fullPage: options.fullPage ?? false, animations: 'disabled' });
}

/** Switches the page to `scheme` and waits until the UI kit applied it. */
export async function showScheme(page: Page, scheme: Scheme): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await expect.poll(() => appliedColorScheme(page)).toBe(scheme);
}
