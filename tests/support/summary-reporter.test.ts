import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const REPORTER = join(ROOT, 'tests/support/summary-reporter.ts');

/** Every way the suites skip: a note, a reason in a suite title, a suite with no tests, none. */
const FIXTURE = `
import { describe, it } from 'vitest';
it('passes', () => undefined);
it('skips itself', (ctx) => ctx.skip('the fixture has no network'));
describe.skip('on PostgreSQL [postgres: skipped, TEST_POSTGRES_URL is not set (e.g. postgres://x)]', () => {
  it('one', () => undefined);
  describe('nested', () => {
    it('two', () => undefined);
  });
});
describe.skip('in a browser [skipped: /usr/bin/chromium is missing]', () => undefined);
it.skip('not written yet', () => undefined);
`;

/** The closing summary of a real Vitest run over the fixture, with this reporter alone. */
describe('the closing summary of a test run', () => {
  let dir: string;
  let output: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'summary-reporter-'));
    await writeFile(join(dir, 'fixture.test.ts'), FIXTURE);
    await writeFile(
      join(dir, 'vitest.config.mjs'),
      `export default { test: { include: ['*.test.ts'], reporters: [${JSON.stringify(REPORTER)}] } };`,
    );
    const run = await promisify(execFile)(
      process.execPath,
      [
        join(ROOT, 'node_modules/vitest/vitest.mjs'),
        'run',
        '--root',
        dir,
        '--config',
        join(dir, 'vitest.config.mjs'),
      ],
      {
        cwd: ROOT,
        env: { ...process.env, VITEST: undefined, VITEST_WORKER_ID: undefined, VITEST_POOL_ID: undefined },
      },
    );
    output = run.stdout;
  }, 60_000);

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('names the reason of every skipped test, one line per reason with its count', () => {
    expect(output).toContain(
      [
        'Skipped, by reason:',
        '  2 tests: TEST_POSTGRES_URL is not set (e.g. postgres://x)',
        '  1 suite: /usr/bin/chromium is missing',
        '  1 test: no reason given (skip, todo, or left out by a filter or .only)',
        '  1 test: the fixture has no network',
      ].join('\n'),
    );
  });

  it('names the slowest files with their seconds, for whoever looks at the run time next', () => {
    // cwd is the project root, so the fixture is named by its path from there.
    expect(output).toMatch(/\nSlowest files:\n +\d+ s {2}\S*fixture\.test\.ts\n/);
  });

  it('still ends with the one line CI reads', () => {
    expect(output.trimEnd().split('\n').at(-1)).toBe('Tests: 1 passed, 0 failed, 4 skipped');
  });
});
