import type { LicenseCheckResult } from '../shared/bridge.js';

/** setInterval/clearInterval (injected so a test can run the ticks itself). */
export interface IntervalTimer {
  setInterval(run: () => void, milliseconds: number): unknown;
  clearInterval(handle: unknown): void;
}

const nodeTimer: IntervalTimer = {
  setInterval: (run, milliseconds) => setInterval(run, milliseconds).unref(),
  clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
};

export interface PeriodicLicenseCheckOptions {
  check: () => Promise<LicenseCheckResult>;
  intervalMs: number;
  timer?: IntervalTimer;
  log?: (message: string) => void;
}

/**
 * Checks at start and then every `intervalMs`, so the offline lease is renewed (and a revoked
 * license loses its lease) even when nobody opens the license screen. One check at a time.
 */
export function startPeriodicLicenseCheck(options: PeriodicLicenseCheckOptions): { stop(): void } {
  const timer = options.timer ?? nodeTimer;
  const log = options.log ?? (() => undefined);
  let running: Promise<void> | undefined;
  const tick = () => {
    running ??= options
      .check()
      .then((result) => log(`Periodic license check: ${result.status} (${result.message})`))
      .catch((error: unknown) => log(`Periodic license check failed: ${(error as Error).message}`))
      .finally(() => {
        running = undefined;
      });
  };
  tick();
  const handle = timer.setInterval(tick, options.intervalMs);
  return { stop: () => timer.clearInterval(handle) };
}
