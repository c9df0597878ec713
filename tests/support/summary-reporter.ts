import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends the run with one plain line, `Tests: N passed, N failed, N skipped`, that CI and people
 * can read without knowing Vitest's own summary format. A file that failed outside its tests
 * (it did not load, or a hook such as afterAll failed) counts as one more failure.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const testModule of testModules) {
      let failedTests = 0;
      for (const test of testModule.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed += 1;
        else if (state === 'failed') failedTests += 1;
        else counts.skipped += 1;
      }
      counts.failed += failedTests;
      if (testModule.state() === 'failed' && failedTests === 0) counts.failed += 1;
    }
    counts.failed += unhandledErrors.length;
    process.stdout.write(
      `\nTests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`,
    );
  }
}
