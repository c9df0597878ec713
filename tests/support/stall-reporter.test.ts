import type { TestCase, TestModule } from 'vitest/node';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import StallReporter from './stall-reporter.js';

/** Just what the reporter reads of Vitest's module and test entities (no second Vitest can run here). */
function moduleInState(id: string) {
  const module = { id, moduleId: `/repo/${id}`, currentState: 'pending', state: () => module.currentState };
  return module;
}
const testIn = (module: ReturnType<typeof moduleInState>, name: string) =>
  ({ module, fullName: name }) as unknown as TestCase;
const asModule = (module: ReturnType<typeof moduleInState>) => module as unknown as TestModule;

describe('the stall reporter', () => {
  let exit: ReturnType<typeof vi.spyOn>;
  let reporter: StallReporter;

  beforeEach(() => {
    vi.useFakeTimers();
    exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    reporter = new StallReporter();
    reporter.onTestRunStart();
  });

  afterEach(() => {
    reporter.onTestRunEnd();
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('ends the run when a file makes no progress for six minutes', () => {
    const file = moduleInState('stuck.test.ts');
    reporter.onTestModuleStart(asModule(file));
    reporter.onTestCaseReady(testIn(file, 'waits forever'));
    vi.advanceTimersByTime(5 * 60_000);
    expect(exit).not.toHaveBeenCalled();
    vi.advanceTimersByTime(60_000 + 15_000);
    expect(exit).toHaveBeenCalledWith(1);
    expect(vi.mocked(process.stderr.write).mock.calls.join('')).toContain('stuck.test.ts');
  });

  it("a file's start handled after its end (the file already passed) is not taken for a stuck file", () => {
    const file = moduleInState('started-late.test.ts');
    file.currentState = 'passed';
    reporter.onTestModuleEnd(asModule(file));
    // Handled out of order while the file still looked pending, then it finished.
    file.currentState = 'pending';
    reporter.onTestModuleStart(asModule(file));
    file.currentState = 'passed';
    vi.advanceTimersByTime(10 * 60_000);
    expect(exit).not.toHaveBeenCalled();
  });

  it('a test result that arrives after its file ended does not count the file as running again', () => {
    // A worker sends its event batches without waiting: the file's end can be handled first.
    const file = moduleInState('fast.test.ts');
    reporter.onTestModuleStart(asModule(file));
    file.currentState = 'passed';
    reporter.onTestModuleEnd(asModule(file));
    reporter.onTestCaseResult(testIn(file, 'the last test'));
    vi.advanceTimersByTime(10 * 60_000);
    expect(exit).not.toHaveBeenCalled();
  });
});
