import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import type { RequestMeta } from '../../platform/request-meta.js';
import { recordSecurityEvent } from '../../platform/security-log/service.js';
import { securityEventTypes } from '../../platform/security-log/security-events.js';
import { noteTokenUse } from './repository.js';

/** What the security log's `api_token_used` row says about a call made with a token. */
export interface TokenCall {
  tokenId: string;
  name: string;
  userId: string;
  method: string;
  route: string;
  statusCode: number;
  meta: RequestMeta;
}

/** One row to be: the calls of one token, route, answer, address and browser in one minute. */
interface Bucket {
  call: TokenCall;
  minute: string;
  count: number;
  firstAt: string;
  lastAt: string;
}

/** Where and when a token was last used, written to `api_tokens` with the next flush. */
interface LastUse {
  at: string;
  ip: string;
}

export interface TokenUsesOptions {
  db: Db;
  clock: Clock;
  /** How often the minutes that have ended are written. */
  flushIntervalMs: number;
  onFlushError: (error: unknown) => void;
}

/** A token the server refused for this call (scope, administrator, second factor): one row each, at once. */
export const isRefusal = (statusCode: number) => statusCode === 401 || statusCode === 403;

/** Past this many open rows a flush starts at once, so a flood of distinct calls cannot grow memory without end. */
const MAX_BUCKETS = 10_000;

const minuteOf = (at: string) => at.slice(0, 16);

/**
 * The security log's record of calls made with API tokens. A refusal is written at once, one row
 * per call. Successful calls are counted in memory per token, method, route, status, address and
 * browser and minute, and written as one row with a `count` (and `first_at`, `last_at`) when the
 * minute has ended, in one transaction with the tokens' `last_used_at`. Each instance writes its
 * own rows; `close()` writes everything, so a clean stop loses nothing, and a crash loses at most
 * the current minute and one flush interval.
 */
export function createTokenUses({ db, clock, flushIntervalMs, onFlushError }: TokenUsesOptions) {
  const buckets = new Map<string, Bucket>();
  let lastUses = new Map<string, LastUse>();
  let running: Promise<void> | undefined;
  let closed = false;

  const rowOf = (bucket: Bucket) => ({
    type: securityEventTypes.apiTokenUsed,
    severity: 'info' as const,
    userId: bucket.call.userId,
    meta: bucket.call.meta,
    at: bucket.firstAt,
    details: {
      token_id: bucket.call.tokenId,
      name: bucket.call.name,
      method: bucket.call.method,
      route: bucket.call.route,
      status_code: bucket.call.statusCode,
      count: bucket.count,
      first_at: bucket.firstAt,
      last_at: bucket.lastAt,
    },
  });

  function noteLastUse(tokenId: string, at: string, ip: string): void {
    const known = lastUses.get(tokenId);
    if (!known || known.at <= at) lastUses.set(tokenId, { at, ip });
  }

  function addBucket(key: string, bucket: Bucket): void {
    const known = buckets.get(key);
    if (!known) {
      buckets.set(key, bucket);
      return;
    }
    known.count += bucket.count;
    if (bucket.firstAt < known.firstAt) known.firstAt = bucket.firstAt;
    if (bucket.lastAt > known.lastAt) known.lastAt = bucket.lastAt;
  }

  /** Writes the chosen rows and every last use in one transaction; on failure keeps them for the next flush. */
  async function write(rows: Map<string, Bucket>, uses: Map<string, LastUse>): Promise<void> {
    if (rows.size === 0 && uses.size === 0) return;
    try {
      await db.transaction().execute(async (trx) => {
        for (const bucket of rows.values()) await recordSecurityEvent(trx, clock, rowOf(bucket));
        for (const [tokenId, use] of uses) await noteTokenUse(trx, tokenId, use.at, use.ip);
      });
    } catch (error) {
      for (const [key, bucket] of rows) addBucket(key, bucket);
      for (const [tokenId, use] of uses) noteLastUse(tokenId, use.at, use.ip);
      throw error;
    }
  }

  /** Writes the rows of minutes that have ended (all of them with `all`); one flush at a time. */
  async function flush({ all = true }: { all?: boolean } = {}): Promise<void> {
    while (running) await running.catch(() => undefined);
    const current = minuteOf(clock.now().toISOString());
    const rows = new Map<string, Bucket>();
    for (const [key, bucket] of buckets) {
      if (all || bucket.minute < current) {
        rows.set(key, bucket);
        buckets.delete(key);
      }
    }
    const uses = lastUses;
    lastUses = new Map();
    running = write(rows, uses);
    try {
      await running;
    } finally {
      running = undefined;
    }
  }

  const timer = setInterval(() => flush({ all: false }).catch(onFlushError), flushIntervalMs);
  timer.unref();

  return {
    /**
     * Notes a call made with a token once it is answered. A refusal's row is written before this
     * resolves; a success is counted and written with its minute (at once after `close()`).
     */
    async record(call: TokenCall): Promise<void> {
      const at = clock.now().toISOString();
      noteLastUse(call.tokenId, at, call.meta.ip);
      if (isRefusal(call.statusCode)) {
        await recordSecurityEvent(db, clock, {
          type: securityEventTypes.apiTokenUsed,
          severity: 'info',
          userId: call.userId,
          meta: call.meta,
          at,
          details: {
            token_id: call.tokenId,
            name: call.name,
            method: call.method,
            route: call.route,
            status_code: call.statusCode,
            count: 1,
          },
        });
        return;
      }
      const minute = minuteOf(at);
      const key = JSON.stringify([
        call.tokenId,
        call.method,
        call.route,
        call.statusCode,
        call.meta.ip,
        call.meta.userAgent,
        minute,
      ]);
      addBucket(key, { call, minute, count: 1, firstAt: at, lastAt: at });
      if (closed) await flush();
      else if (buckets.size >= MAX_BUCKETS && !running) flush().catch(onFlushError);
    },
    /** Writes every pending row and last use now, the current minute's too. */
    flush: () => flush(),
    /** Stops the timer and writes what is pending: a clean shutdown loses nothing. */
    async close(): Promise<void> {
      closed = true;
      clearInterval(timer);
      await flush();
    },
  };
}

export type TokenUses = ReturnType<typeof createTokenUses>;
