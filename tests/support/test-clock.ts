import type { Clock } from '../../src/server/clock.js';

/** Real time plus an offset that tests move forward to reach expiries without waiting. */
export interface TestClock extends Clock {
  advance(milliseconds: number): void;
}

export function createTestClock(): TestClock {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance(milliseconds) {
      offset += milliseconds;
    },
  };
}
