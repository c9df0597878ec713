import {
  type FloatingSeatAnswer,
  floatingSeatAnswerSchema,
  type FloatingSeatsFull,
  floatingSeatsFullSchema,
} from '../shared/api/floating.js';
import { apiPaths } from '../shared/api-paths.js';
import { postToServer, refusalIn, type ServerPostOptions, unreadableAnswer } from './server-post.js';

/** What one floating-seat call came to. */
export type FloatingOutcome =
  | { kind: 'ok'; answer: FloatingSeatAnswer }
  /** Every seat is held: who holds them and when the first may come back. */
  | { kind: 'full'; answer: FloatingSeatsFull }
  /** The server said no, with its code (`floating_seat_lapsed`, `license_not_floating`…) and words. */
  | { kind: 'refused'; code: string; message: string }
  /** No answer: the network failed, the request timed out, or the server could not answer (5xx, 429). */
  | { kind: 'unreachable'; reason: string };

export interface FloatingApi {
  checkout(key: string, hardwareId: string, deviceName: string): Promise<FloatingOutcome>;
  heartbeat(key: string, hardwareId: string): Promise<FloatingOutcome>;
  borrow(key: string, hardwareId: string, deviceName: string, days: number): Promise<FloatingOutcome>;
  /** Release (on quit) or the return of a borrowed seat; resolves whatever the server answered. */
  release(key: string, hardwareId: string, what: 'release' | 'return'): Promise<'done' | 'unreachable'>;
}

export type FloatingApiOptions = ServerPostOptions;

/** The floating-seat calls main makes with the key and hardware id (the renderer never sees the lease). */
export function createFloatingApi(options: FloatingApiOptions): FloatingApi {
  const paths = apiPaths.floating;

  async function post(path: string, body: unknown): Promise<FloatingOutcome> {
    const result = await postToServer(options, path, body);
    if (!result.reached) return { kind: 'unreachable', reason: result.reason };
    if (result.ok) {
      const parsed = floatingSeatAnswerSchema.safeParse(result.body);
      return parsed.success
        ? { kind: 'ok', answer: parsed.data }
        : { kind: 'refused', code: 'unreadable_answer', message: unreadableAnswer };
    }
    const full = floatingSeatsFullSchema.safeParse(result.body);
    if (full.success && full.data.code === 'floating_seats_full') return { kind: 'full', answer: full.data };
    const refusal = refusalIn(result.body);
    return refusal
      ? { kind: 'refused', ...refusal }
      : { kind: 'refused', code: 'unreadable_answer', message: unreadableAnswer };
  }

  return {
    checkout: (key, hardwareId, deviceName) =>
      post(paths.checkout, { license_key: key, hardware_id: hardwareId, device_name: deviceName }),
    heartbeat: (key, hardwareId) => post(paths.heartbeat, { license_key: key, hardware_id: hardwareId }),
    borrow: (key, hardwareId, deviceName, days) =>
      post(paths.borrow, { license_key: key, hardware_id: hardwareId, device_name: deviceName, days }),
    async release(key, hardwareId, what) {
      const outcome = await post(what === 'return' ? paths.returnBorrowed : paths.release, {
        license_key: key,
        hardware_id: hardwareId,
      }).catch(() => ({ kind: 'unreachable' as const, reason: '' }));
      return outcome.kind === 'unreachable' ? 'unreachable' : 'done';
    },
  };
}
