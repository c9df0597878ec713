// Renders build/icon.svg to the PNG icons electron-builder packs (Linux takes the folder; it derives
// the Windows .ico and the macOS .icns from the 512 px one). Run after changing the SVG: node scripts/desktop-icons.mjs
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const root = join(import.meta.dirname, '..');
const svg = await readFile(join(root, 'build/icon.svg'), 'utf8');
const browser = await chromium.launch({
  executablePath: process.env['E2E_CHROMIUM_PATH'] ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  for (const size of [512, 256, 128, 64, 32, 16]) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${svg}`,
    );
    const target = `build/icons/${size}x${size}.png`;
    await page.screenshot({ path: join(root, target), omitBackground: true });
    await page.close();
    console.info(`wrote ${target}`);
  }
} finally {
  await browser.close();
}
