import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { REPO_ROOT } from './build.js';
import { ARTIFACTS_DIR } from './portal.js';

/** The committed pictures each screen is compared with. */
export const BASELINES_DIR = join(REPO_ROOT, 'tests', 'e2e', 'baselines');
/** Where a run leaves the picture it took and the difference, when they do not match. */
export const ACTUAL_DIR = join(ARTIFACTS_DIR, 'screen-baselines');
/** The one command that writes the baselines on purpose. */
export const UPDATE_COMMAND = 'npm run test:screens:update';
export const UPDATING = process.env['UPDATE_SCREEN_BASELINES'] === '1';

/**
 * How far a picture may drift: a pixel counts as changed past pixelmatch's colour distance 0.1
 * (anti-aliased edges ignored), and the picture fails when more than 0.2 % of its pixels changed —
 * a moved button or a wrapped line is far more, a font's rounding far less.
 */
export const PIXEL_THRESHOLD = 0.1;
export const MAX_CHANGED_RATIO = 0.002;

const rel = (path: string) => relative(REPO_ROOT, path);

/**
 * Compares a screenshot with its baseline `name`.png. Returns the problem (a missing baseline, a
 * different size, too many changed pixels: the actual picture and a diff are written next to each
 * other and named), or null when it matches. With UPDATE_SCREEN_BASELINES=1 it writes the baseline
 * of each screen that no longer matches, and leaves the others' files as they are.
 */
export async function compareWithBaseline(name: string, picture: Buffer): Promise<string | null> {
  const baselinePath = join(BASELINES_DIR, `${name}.png`);
  const problem = await differenceFrom(baselinePath, name, picture);
  if (!UPDATING) return problem;
  if (problem) {
    await mkdir(BASELINES_DIR, { recursive: true });
    await writeFile(baselinePath, picture);
  }
  return null;
}

async function differenceFrom(baselinePath: string, name: string, picture: Buffer): Promise<string | null> {
  await mkdir(ACTUAL_DIR, { recursive: true });
  const actualPath = join(ACTUAL_DIR, `${name}.actual.png`);
  if (!existsSync(baselinePath)) {
    await writeFile(actualPath, picture);
    return `${name}: no baseline ${rel(baselinePath)} (this run's picture: ${rel(actualPath)}); run \`${UPDATE_COMMAND}\` to write it`;
  }
  const expected = PNG.sync.read(await readFile(baselinePath));
  const actual = PNG.sync.read(picture);
  if (expected.width !== actual.width || expected.height !== actual.height) {
    await writeFile(actualPath, picture);
    return `${name}: ${actual.width}x${actual.height} instead of the baseline's ${expected.width}x${expected.height} (see ${rel(actualPath)}); if the change is meant, run \`${UPDATE_COMMAND}\``;
  }
  const diff = new PNG({ width: actual.width, height: actual.height });
  const changed = pixelmatch(expected.data, actual.data, diff.data, actual.width, actual.height, {
    threshold: PIXEL_THRESHOLD,
  });
  const ratio = changed / (actual.width * actual.height);
  if (ratio <= MAX_CHANGED_RATIO) return null;
  const diffPath = join(ACTUAL_DIR, `${name}.diff.png`);
  await writeFile(actualPath, picture);
  await writeFile(diffPath, PNG.sync.write(diff));
  return `${name}: ${changed} pixels (${(ratio * 100).toFixed(2)} %) differ from ${rel(baselinePath)}, more than ${MAX_CHANGED_RATIO * 100} % (see ${rel(actualPath)} and the changes in red in ${rel(diffPath)}); if the change is meant, run \`${UPDATE_COMMAND}\``;
}
