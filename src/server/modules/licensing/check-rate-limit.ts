import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../http-error.js';

const MINUTE_MS = 60_000;

/**
 * Checks per client address and clock minute, counted in this process's memory: a map lookup on
 * the happy path, no headers, no round trip to Redis on the route every desktop calls. Behind
 * several instances each counts its own share, so the limit is a ceiling against floods, not a
 * quota. Counts start afresh every minute, so the map never outgrows one minute's addresses.
 */
export function createCheckRateLimit(perMinute: number, now: () => number) {
  let minute = -1;
  let counts = new Map<string, number>();
  return (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void => {
    const time = now();
    const current = Math.floor(time / MINUTE_MS);
    if (current !== minute) {
      minute = current;
      counts = new Map();
    }
    const count = (counts.get(request.ip) ?? 0) + 1;
    counts.set(request.ip, count);
    if (count <= perMinute) return done();
    const waitSeconds = Math.max(1, Math.ceil(((current + 1) * MINUTE_MS - time) / 1000));
    done(
      new HttpError(429, 'rate_limited', `Too many license checks. Try again in ${waitSeconds} seconds.`, {
        'retry-after': String(waitSeconds),
      }),
    );
  };
}
