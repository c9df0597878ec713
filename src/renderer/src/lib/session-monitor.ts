import {
  SESSION_CHECK_INTERVAL_MS,
  SESSION_INACTIVITY_TIMEOUT_MS,
  TOKEN_REFRESH_CHECK_INTERVAL_MS,
  TOKEN_REFRESH_IMMEDIATE_BELOW_MS,
  TOKEN_REFRESH_LEAD_MS,
} from '../../../shared/constants';
import { tokenLifetimeMs } from './token';

/**
 * Refresh about 5 minutes before expiry, or at half the remaining life when that
 * leaves less than 5 minutes of lead; with under 60 s left, at once.
 */
export function refreshDelayMs(remainingMs: number): number {
  if (remainingMs < TOKEN_REFRESH_IMMEDIATE_BELOW_MS) return 0;
  return remainingMs - Math.min(TOKEN_REFRESH_LEAD_MS, remainingMs / 2);
}

export interface SessionMonitorDeps {
  isAuthenticated(): boolean;
  lastActivity(): number;
  getAccessToken(): Promise<string | null>;
  /** 30 minutes without activity: sign the user out. */
  onInactive(): void;
  /** The token is due for refresh. */
  refresh(): Promise<unknown>;
  /** Marks the user active (their own pointer and key presses count, not only store actions). */
  markActive?(): void;
  activityTarget?: EventTarget;
  now?: () => number;
}

const ACTIVITY_EVENTS = ['pointerdown', 'keydown'] as const;

/** Starts the inactivity check and the refresh schedule; returns the function that stops both. */
export function startSessionMonitor(deps: SessionMonitorDeps): () => void {
  const now = deps.now ?? Date.now;
  let stopped = false;
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;
  let scheduledFor: string | null = null;
  let dueAt: number | null = null;
  let refreshing = false;

  const refreshNow = async () => {
    if (refreshing || stopped) return;
    refreshing = true;
    dueAt = null;
    scheduledFor = null;
    try {
      await deps.refresh();
    } catch {
      // A failed refresh has already ended the session (tokens cleared, state signed out).
    } finally {
      refreshing = false;
    }
    await schedule();
  };

  const schedule = async () => {
    if (stopped || !deps.isAuthenticated()) return;
    const token = await deps.getAccessToken();
    if (stopped || token === scheduledFor) return;
    clearTimeout(refreshTimer);
    scheduledFor = token;
    const remaining = tokenLifetimeMs(token, now());
    if (remaining === null) return;
    const delay = refreshDelayMs(remaining);
    dueAt = now() + delay;
    refreshTimer = setTimeout(() => void refreshNow(), delay);
  };

  const checkInactivity = () => {
    if (deps.isAuthenticated() && now() - deps.lastActivity() >= SESSION_INACTIVITY_TIMEOUT_MS)
      deps.onInactive();
  };

  // The once-a-minute checks catch what a single long timer misses (a sleeping laptop, a new token).
  const sessionCheck = setInterval(checkInactivity, SESSION_CHECK_INTERVAL_MS);
  const refreshCheck = setInterval(() => {
    if (dueAt !== null && now() >= dueAt) void refreshNow();
    else void schedule();
  }, TOKEN_REFRESH_CHECK_INTERVAL_MS);

  let lastMark = 0;
  const onActivity = () => {
    // Throttled: a store update per key press would be noise.
    if (now() - lastMark < SESSION_CHECK_INTERVAL_MS) return;
    lastMark = now();
    deps.markActive?.();
  };
  for (const type of ACTIVITY_EVENTS)
    deps.activityTarget?.addEventListener(type, onActivity, { passive: true });

  void schedule();

  return () => {
    stopped = true;
    clearTimeout(refreshTimer);
    clearInterval(sessionCheck);
    clearInterval(refreshCheck);
    for (const type of ACTIVITY_EVENTS) deps.activityTarget?.removeEventListener(type, onActivity);
  };
}
