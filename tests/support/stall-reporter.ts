import type { TestAnnotation } from 'vitest';
import type { Reporter, ReportedHookContext, TestCase, TestModule } from 'vitest/node';

/** No event from a running file for this long means it is stuck (every hook and test has a shorter timeout). */
const stallMinutes = Number(process.env['TEST_STALL_MINUTES']);
const STALL_MS = (Number.isFinite(stallMinutes) && stallMinutes > 0 ? stallMinutes : 6) * 60_000;

interface Running {
  module: TestModule;
  file: string;
  /** What the file was last seen doing. */
  doing: string;
  since: number;
}

/** Not finished yet: queued, or running (a file that passed, failed or was skipped is done). */
const isRunning = (testModule: TestModule) => ['pending', 'queued'].includes(testModule.state());

/** A file's own hooks (beforeAll at the top level) report the file itself as their entity. */
const moduleOf = (hook: ReportedHookContext): TestModule =>
  hook.entity.type === 'module' ? hook.entity : hook.entity.module;

/**
 * Ends a run that would otherwise hang: a worker whose event loop is blocked can no longer fire
 * Vitest's own test and hook timeouts, and the run then waits for it forever (CI only sees its
 * own time limit). When a file makes no progress for TEST_STALL_MINUTES (6), this names the file
 * and what it was doing, and exits with a failure.
 */
export default class StallReporter implements Reporter {
  private readonly running = new Map<string, Running>();
  private timer: NodeJS.Timeout | undefined;

  onTestRunStart(): void {
    // A watch-mode rerun starts afresh: a file cancelled in the last run never reported its end.
    this.running.clear();
    this.timer = setInterval(() => this.check(), 15_000);
    this.timer.unref();
  }

  onTestRunEnd(): void {
    clearInterval(this.timer);
  }

  onTestModuleStart(testModule: TestModule): void {
    this.touch(testModule, 'loading the file');
  }

  onTestModuleEnd(testModule: TestModule): void {
    this.running.delete(testModule.id);
  }

  onHookStart(hook: ReportedHookContext): void {
    const where = hook.entity.type === 'module' ? 'the file' : `"${hook.entity.fullName}"`;
    this.touch(moduleOf(hook), `${hook.name} of ${where}`);
  }

  onHookEnd(hook: ReportedHookContext): void {
    this.touch(moduleOf(hook), `after ${hook.name}`);
  }

  onTestCaseReady(testCase: TestCase): void {
    this.touch(testCase.module, `test "${testCase.fullName}"`);
  }

  /** A long test that says how far it got (`context.annotate`) is making progress. */
  onTestCaseAnnotate(testCase: TestCase, annotation: TestAnnotation): void {
    this.touch(testCase.module, `test "${testCase.fullName}" (${annotation.message})`);
  }

  onTestCaseResult(testCase: TestCase): void {
    this.touch(testCase.module, `after test "${testCase.fullName}"`);
  }

  private touch(testModule: TestModule, doing: string): void {
    // A worker sends its events in batches without waiting for the last one to be handled, so a
    // test's result can reach a reporter after its file's end: a finished file is not running.
    if (!isRunning(testModule)) {
      this.running.delete(testModule.id);
      return;
    }
    this.running.set(testModule.id, {
      module: testModule,
      file: testModule.moduleId,
      doing,
      since: Date.now(),
    });
  }

  private check(): void {
    const now = Date.now();
    // Asked again now: events handled out of order can leave a finished file behind in the map.
    for (const [id, entry] of this.running) if (!isRunning(entry.module)) this.running.delete(id);
    const stuck = [...this.running.values()].filter((entry) => now - entry.since > STALL_MS);
    if (stuck.length === 0) return;
    const lines = stuck.map(
      (entry) =>
        `  ${entry.file}: no progress for ${Math.round((now - entry.since) / 1000)} s, in ${entry.doing}`,
    );
    process.stderr.write(`\n[stall] the test run is stuck; ending it:\n${lines.join('\n')}\n`);
    process.stdout.write(`\nTests: stalled in ${stuck.length} file(s); see [stall] above\n`);
    process.exit(1);
  }
}
