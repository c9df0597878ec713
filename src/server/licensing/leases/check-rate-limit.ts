import { isIPv6 } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../platform/http-error.js';

const MINUTE_MS = 60_000;
/** Addresses counted separately in one minute; past this, the rest share one count. */
const MAX_ADDRESSES = 100_000;
const OVERFLOW = 'others';

/**
 * Whom a check is counted against: an IPv4 address, or an IPv6 address's /64 (one subscriber's
 * network, whose addresses cost nothing to change).
 */
function clientOf(address: string): string {
  if (!isIPv6(address) || address.startsWith('::ffff:')) return address;
  const [head = '', tail] = address.split('::');
  const groups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined ? [] : tail === '' ? [] : tail.split(':');
  const full =
    tail === undefined
      ? groups
      : [...groups, ...Array(8 - groups.length - tailGroups.length).fill('0'), ...tailGroups];
  return `${full
    .slice(0, 4)
    .map((group) => group.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * Checks per client and clock minute, counted in this process's memory: a map lookup on the happy
 * path, no headers, no round trip to Redis on the route every desktop calls. Behind several
 * instances each counts its own share, so the limit is a ceiling against floods, not a quota.
 * Counts start afresh every minute, and within one at most {@link MAX_ADDRESSES} are kept apart.
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
    let client = clientOf(request.ip);
    if (!counts.has(client) && counts.size >= MAX_ADDRESSES) client = OVERFLOW;
    const count = (counts.get(client) ?? 0) + 1;
    counts.set(client, count);
    if (count <= perMinute) return done();
    const waitSeconds = Math.max(1, Math.ceil(((current + 1) * MINUTE_MS - time) / 1000));
    done(
      new HttpError(429, 'rate_limited', `Too many license checks. Try again in ${waitSeconds} seconds.`, {
        'retry-after': String(waitSeconds),
      }),
    );
  };
}
