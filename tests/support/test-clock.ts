import type { Clock } from '../../src/server/platform/clock.js';

/** Real time plus an offset that tests move forward to reach expiries without waiting. */
export interface TestClock extends Clock {
  advance(milliseconds: number): void;
  /**
   * Stops real time from moving the clock (advance() still does), so a test that steps just short
   * of a limit, or dates rows around the server's "now", means the same on a slow machine.
   */
  freeze(): void;
  /** Lets real time move the clock again, from where it would have been had it never stopped. */
  resume(): void;
}

export function createTestClock(): TestClock {
  let offset = 0;
  let frozenAt: number | undefined;
  return {
    now: () => new Date((frozenAt ?? Date.now()) + offset),
    advance(milliseconds) {
      offset += milliseconds;
    },
    freeze() {
      frozenAt ??= Date.now();
    },
    resume() {
      frozenAt = undefined;
    },
  };
}
