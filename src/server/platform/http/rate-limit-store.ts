import { createRequire } from 'node:module';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';

type Callback = Parameters<FastifyRateLimitStore['incr']>[1];

/** @fastify/rate-limit's own Redis store (its Lua counter), which the package does not export typed. */
interface PluginRedisStore {
  incr(key: string, callback: Callback, timeWindow: number, max: number): void;
  read(key: string, callback: Callback): void;
}
type PluginRedisStoreCtor = new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key: string,
) => PluginRedisStore;

const PluginRedisStore = createRequire(import.meta.url)(
  '@fastify/rate-limit/store/RedisStore',
) as PluginRedisStoreCtor;

/** What the plugin hands a store's constructor and `child` (the route's merged settings). */
interface LimitSettings {
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
  routeInfo?: { method?: string | string[]; url?: string };
}

/**
 * The plugin's Redis store with one change to the names of its counters: a limit made with
 * `app.rateLimit()` has no route, and the plugin's store then names its counters
 * `undefinedundefined-<key>`; here they are `<nameSpace><key>`, the key generator naming the limit
 * (`sign-in:<address>`). A route's limit stays `<nameSpace><METHOD><url>-<address>`.
 */
export function namedRedisStore(redis: Redis, nameSpace: string): FastifyRateLimitStoreCtor {
  class NamedRedisStore {
    readonly #counters: PluginRedisStore;

    constructor(settings: LimitSettings, prefix = nameSpace) {
      this.#counters = new PluginRedisStore(
        settings.continueExceeding ?? false,
        settings.exponentialBackoff ?? false,
        redis,
        prefix,
      );
    }

    incr(key: string, callback: Callback, timeWindow: number, max: number): void {
      this.#counters.incr(key, callback, timeWindow, max);
    }

    read(key: string, callback: Callback): void {
      this.#counters.read(key, callback);
    }

    child(settings: LimitSettings): NamedRedisStore {
      const { method, url } = settings.routeInfo ?? {};
      const route = method && url ? `${String(method)}${url}-` : '';
      return new NamedRedisStore(settings, `${nameSpace}${route}`);
    }
  }
  return NamedRedisStore as unknown as FastifyRateLimitStoreCtor;
}
