import { relative } from 'node:path';
import type { Reporter, TestCase, TestModule, TestSuite } from 'vitest/node';

/**
 * How the suites name why they are skipped: `ctx.skip(reason)`, or the reason in the title of the
 * test or a suite around it, `[skipped: reason]` or `[postgres: skipped, reason]`.
 */
const REASON_IN_TITLE = /\[(?:[^[\]]*?:\s*)?skipped[:,]\s*([^\]]+)\]/;
const NO_REASON = 'no reason given (skip, todo, or left out by a filter or .only)';

function reasonInTitles(entity: TestCase | TestSuite): string | undefined {
  for (let current: TestCase | TestSuite | TestModule = entity; current.type !== 'module';) {
    const reason = REASON_IN_TITLE.exec(current.name)?.[1]?.trim();
    if (reason) return reason;
    current = current.parent;
  }
  return undefined;
}

/** Skipped tests and (for suites that declare no tests when skipped) suites, per reason. */
class SkipReasons {
  private readonly counts = new Map<string, { tests: number; suites: number }>();

  add(reason: string, kind: 'tests' | 'suites'): void {
    const count = this.counts.get(reason) ?? { tests: 0, suites: 0 };
    count[kind] += 1;
    this.counts.set(reason, count);
  }

  lines(): string[] {
    const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
    return [...this.counts]
      .sort(([a, x], [b, y]) => y.tests + y.suites - (x.tests + x.suites) || a.localeCompare(b))
      .map(([reason, { tests, suites }]) => {
        const what = [tests ? plural(tests, 'test') : '', suites ? plural(suites, 'suite') : '']
          .filter(Boolean)
          .join(' and ');
        return `  ${what}: ${reason}`;
      });
  }
}

/** How many of the slowest files the summary names: the ones to look at when the run grows. */
const SLOWEST_FILES = 15;

function slowestFiles(testModules: ReadonlyArray<TestModule>): string[] {
  return testModules
    .map((testModule) => ({ file: testModule.moduleId, seconds: testModule.diagnostic().duration / 1000 }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, SLOWEST_FILES)
    .map(({ file, seconds }) => `  ${seconds.toFixed(0).padStart(5)} s  ${relative(process.cwd(), file)}`);
}

/**
 * Ends the run with the slowest files (their tests' and hooks' time) and why anything was skipped, one line per reason, then one plain line,
 * `Tests: N passed, N failed, N skipped`, that CI and people can read without knowing Vitest's own
 * summary format. A file that failed outside its tests (it did not load, or a hook such as
 * afterAll failed) counts as one more failure.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const skipped = new SkipReasons();
    for (const testModule of testModules) {
      let failedTests = 0;
      for (const test of testModule.children.allTests()) {
        const result = test.result();
        if (result.state === 'passed') counts.passed += 1;
        else if (result.state === 'failed') failedTests += 1;
        else {
          counts.skipped += 1;
          const note = result.state === 'skipped' ? result.note : undefined;
          skipped.add(note ?? reasonInTitles(test) ?? NO_REASON, 'tests');
        }
      }
      // A suite skipped before declaring its tests (e.g. the browser suites without Chromium).
      for (const suite of testModule.children.allSuites())
        if (suite.state() === 'skipped' && suite.children.size === 0)
          skipped.add(reasonInTitles(suite) ?? NO_REASON, 'suites');
      counts.failed += failedTests;
      if (testModule.state() === 'failed' && failedTests === 0) counts.failed += 1;
    }
    counts.failed += unhandledErrors.length;
    const reasons = skipped.lines();
    process.stdout.write(
      `\nSlowest files:\n${slowestFiles(testModules).join('\n')}\n` +
        (reasons.length > 0 ? `\nSkipped, by reason:\n${reasons.join('\n')}\n` : '') +
        `\nTests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`,
    );
  }
}
