import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium (never a downloaded browser); E2E_CHROMIUM_PATH points elsewhere. */
export const CHROMIUM_PATH = process.env['E2E_CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Headless, and quiet: no background downloads, updates or sync that would add noise. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
