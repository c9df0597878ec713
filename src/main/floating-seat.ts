import { z } from 'zod';
import type { FloatingSeatAnswer, FloatingSeatsFull } from '../shared/api/floating.js';
import type { LeaseSigningKeys } from '../shared/api/licenses.js';
import type { FloatingSeatState } from '../shared/bridge.js';
import { LEASE_MAX_LIFETIME_SECONDS, verifyLease } from '../shared/lease.js';
import type { FloatingApi, FloatingOutcome } from './floating-api.js';
import { readJsonFile, writeJsonFile } from './json-file.js';
import type { LicenseStateFile } from './license-state.js';

/** A floating license's seat on this machine, kept by main from start to quit. */
export interface FloatingSeat {
  /** At start: checks a seat out (or finds the borrowed one) and keeps it by heartbeats. */
  start(): Promise<FloatingSeatState>;
  /**
   * Starts again when the key main holds is not the one the seat started with: a key kept while
   * the app runs (a member's machine key from a signed-in checkout, a key typed in) is held by
   * heartbeats from then on, without waiting for the next start. Otherwise answers the state.
   */
  follow(): Promise<FloatingSeatState>;
  /** One heartbeat now (the timer's work; tests call it). A lapsed seat is checked out again. */
  heartbeat(): Promise<FloatingSeatState>;
  state(): Promise<FloatingSeatState>;
  borrow(days: number): Promise<FloatingSeatState>;
  returnBorrowed(): Promise<FloatingSeatState>;
  /** On quit: stops the heartbeats and gives the seat back, unless it is borrowed. */
  quit(): Promise<void>;
}

/** Runs `run` after `ms`; answers the function that cancels it. */
export type Schedule = (run: () => void, ms: number) => () => void;

export interface FloatingSeatOptions {
  api: FloatingApi;
  state: LicenseStateFile;
  /** Where the borrowed seat's lease is kept through a restart without the network. */
  path: string;
  hardwareId: () => string;
  deviceName: () => string;
  /** The pinned lease keys; without them a borrowed lease cannot be trusted offline. */
  trustedKeys: LeaseSigningKeys | undefined;
  now: () => Date;
  schedule?: Schedule;
  log?: (message: string) => void;
}

const borrowedFileSchema = z.object({
  license_key: z.string(),
  lease: z.string(),
  borrowed_until: z.string(),
});

const base: Omit<FloatingSeatState, 'status' | 'message'> = {
  seats: null,
  in_use: null,
  held_until: null,
  borrowed_until: null,
  holders: [],
  retry_at: null,
  max_borrow_days: null,
};

const realSchedule: Schedule = (run, ms) => {
  const timer = setTimeout(run, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

const held = (answer: FloatingSeatAnswer): FloatingSeatState => ({
  ...base,
  status: 'held',
  message: answer.borrowed_until
    ? `This machine borrowed a seat until ${answer.borrowed_until}: it runs offline until then.`
    : `This machine holds one of ${answer.seats} floating seats (${answer.in_use} in use).`,
  seats: answer.seats,
  in_use: answer.in_use,
  held_until: answer.held_until,
  borrowed_until: answer.borrowed_until,
  max_borrow_days: answer.max_borrow_days,
});

const full = (answer: FloatingSeatsFull): FloatingSeatState => ({
  ...base,
  status: 'full',
  message: answer.message,
  seats: answer.seats,
  in_use: answer.holders.length,
  holders: answer.holders.map(({ device_name, checked_out_at, borrowed_until }) => ({
    device_name,
    checked_out_at,
    borrowed_until,
  })),
  retry_at: answer.retry_at,
});

/**
 * Floating seats in main: a seat is checked out at start with the stored key and this machine's
 * hardware id, kept by a heartbeat at the interval the server answers, and given back on quit. A
 * borrowed seat's lease is kept on disk and trusted offline while it verifies under the pinned keys
 * for this machine; quitting keeps a borrowed seat (it is for travel), returning it frees it.
 */
export function createFloatingSeat(options: FloatingSeatOptions): FloatingSeat {
  const { api, trustedKeys } = options;
  const schedule = options.schedule ?? realSchedule;
  const log = options.log ?? (() => undefined);
  let current: FloatingSeatState = { ...base, status: 'not_floating', message: 'No floating license' };
  let cancelTimer: (() => void) | null = null;
  let intervalSeconds = 0;
  let quitting = false;
  /** The key the seat last started with (null: never started with one). */
  let startedWith: string | null = null;

  const stopTimer = () => {
    cancelTimer?.();
    cancelTimer = null;
  };
  const startTimer = () => {
    stopTimer();
    if (quitting || intervalSeconds <= 0) return;
    cancelTimer = schedule(() => {
      void seat
        .heartbeat()
        .catch((error: unknown) => log(`Floating seat: heartbeat failed: ${String(error)}`));
    }, intervalSeconds * 1000);
  };

  async function keyOf(): Promise<string | null> {
    return (await options.state.read()).license_key;
  }

  async function readBorrowed(key: string) {
    const parsed = borrowedFileSchema.safeParse(await readJsonFile(options.path).catch(() => null));
    return parsed.success && parsed.data.license_key === key ? parsed.data : null;
  }

  /** A borrowed lease kept here that the pinned keys vouch for, for this machine, now. */
  async function borrowedOffline(key: string): Promise<FloatingSeatState | null> {
    const kept = await readBorrowed(key);
    if (!kept || !trustedKeys) return null;
    const verification = await verifyLease(kept.lease, {
      keys: trustedKeys,
      hardwareId: options.hardwareId(),
      nowSeconds: Math.floor(options.now().getTime() / 1000),
      maxLifetimeSeconds: LEASE_MAX_LIFETIME_SECONDS,
    });
    if (!verification.ok || !verification.claims.floating?.borrowed_until) return null;
    return {
      ...base,
      status: 'held',
      message: `Offline on a borrowed seat until ${kept.borrowed_until}.`,
      held_until: kept.borrowed_until,
      borrowed_until: kept.borrowed_until,
    };
  }

  /** Takes a call's outcome as the seat's state, keeping a borrowed lease and the heartbeat timer. */
  async function settle(key: string, outcome: FloatingOutcome): Promise<FloatingSeatState> {
    if (outcome.kind === 'ok') {
      const { answer } = outcome;
      intervalSeconds = answer.heartbeat_seconds;
      if (answer.borrowed_until)
        await writeJsonFile(options.path, {
          license_key: key,
          lease: answer.lease,
          borrowed_until: answer.borrowed_until,
        });
      // Heartbeats write nothing: the file is emptied once, when a borrow ends.
      else if (await readBorrowed(key)) await writeJsonFile(options.path, {});
      current = held(answer);
      startTimer();
    } else if (outcome.kind === 'full') {
      current = full(outcome.answer);
      intervalSeconds = 0;
      stopTimer();
    } else if (outcome.kind === 'refused') {
      stopTimer();
      current =
        outcome.code === 'license_not_floating'
          ? { ...base, status: 'not_floating', message: outcome.message }
          : { ...base, status: 'refused', message: outcome.message };
    } else {
      current = (await borrowedOffline(key)) ?? {
        ...base,
        status: 'offline',
        message: `Offline: ${outcome.reason}. The app needs the license server to take a floating seat.`,
      };
      // Keep trying at the same pace: the seat is still held on the server for the lease's time.
      startTimer();
    }
    return current;
  }

  const seat: FloatingSeat = {
    async start() {
      quitting = false;
      const key = await keyOf();
      if (!key) return current;
      startedWith = key;
      return settle(key, await api.checkout(key, options.hardwareId(), options.deviceName()));
    },
    async follow() {
      const key = await keyOf();
      if (!key || key === startedWith || quitting) return current;
      return seat.start();
    },
    async heartbeat() {
      const key = await keyOf();
      if (!key) return current;
      const outcome = await api.heartbeat(key, options.hardwareId());
      // The seat lapsed (a long sleep, say): take one again if there is one.
      if (outcome.kind === 'refused' && outcome.code === 'floating_seat_lapsed')
        return settle(key, await api.checkout(key, options.hardwareId(), options.deviceName()));
      return settle(key, outcome);
    },
    state: async () => current,
    async borrow(days) {
      const key = await keyOf();
      if (!key) return current;
      return settle(key, await api.borrow(key, options.hardwareId(), options.deviceName(), days));
    },
    async returnBorrowed() {
      const key = await keyOf();
      if (!key) return current;
      if ((await api.release(key, options.hardwareId(), 'return')) === 'done') {
        await writeJsonFile(options.path, {});
        // Back to an ordinary seat, if one is free.
        return seat.start();
      }
      return current;
    },
    async quit() {
      quitting = true;
      stopTimer();
      const key = await keyOf();
      if (!key || current.status !== 'held' || current.borrowed_until) return;
      await api.release(key, options.hardwareId(), 'release');
      current = { ...base, status: 'not_floating', message: 'The seat was given back' };
    },
  };
  return seat;
}
