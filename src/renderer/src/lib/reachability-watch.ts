import { serverAnswers } from './server-reachability';

/** Pauses between health checks while the server is away: soon at first, then every 30 s. */
export const RETRY_DELAYS_MS: readonly number[] = [2_000, 5_000, 10_000, 20_000, 30_000];

export interface ReachabilityWatch {
  /** Stops checking. */
  stop(): void;
}

export interface WatchOptions {
  /** Called once, when the server answers again. */
  onBack: () => void;
  probe?: () => Promise<boolean>;
  /** Timers (a test's fake ones). */
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

/**
 * Checks the server's health with growing pauses until it answers, then calls `onBack` once. The
 * browser coming back online checks at once.
 */
export function watchUntilReachable({
  onBack,
  probe = () => serverAnswers(),
  setTimer = (run, ms) => setTimeout(run, ms),
  clearTimer = (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
}: WatchOptions): ReachabilityWatch {
  let attempt = 0;
  let timer: unknown;
  let stopped = false;
  let checking = false;
  const check = async () => {
    if (stopped || checking) return;
    checking = true;
    const back = await probe();
    checking = false;
    if (stopped) return;
    if (back) {
      stop();
      onBack();
      return;
    }
    schedule();
  };
  const schedule = () => {
    clearTimer(timer);
    const delay = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)] ?? 30_000;
    attempt += 1;
    timer = setTimer(() => void check(), delay);
  };
  const online = () => void check();
  const stop = () => {
    stopped = true;
    clearTimer(timer);
    globalThis.removeEventListener?.('online', online);
  };
  globalThis.addEventListener?.('online', online);
  schedule();
  return { stop };
}
