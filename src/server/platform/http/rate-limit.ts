import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../http-error.js';
import { namedRedisStore } from './rate-limit-store.js';

/** The plugin's default: one count per IPv6 /64, as one customer line usually holds a whole /64. */
const IPV6_SUBNET = 64;

/**
 * The plugin's default key (the client address), for a request whose socket is already gone too:
 * the address is then unknown (`request.ip` is undefined) and the plugin's own generator throws,
 * logging an error for a request nobody is waiting for. It is counted under one name instead.
 */
export const clientAddressKey = (request: FastifyRequest): string =>
  request.ip === undefined ? 'unknown-address' : normalizeIP(request.ip, IPV6_SUBNET);

/**
 * Per-address limits for the routes that opt in with `config.rateLimit`. Counters live in Redis
 * when REDIS_URL is set, so every instance behind a load balancer shares them; otherwise in memory.
 * Every Redis key starts with REDIS_KEY_PREFIX (ioredis adds it), so deployments sharing one Redis
 * keep their own counters.
 */
export async function registerRateLimit(
  app: FastifyInstance,
  { redisUrl, redisKeyPrefix }: { redisUrl: string | undefined; redisKeyPrefix: string },
): Promise<void> {
  const redis = redisUrl
    ? new (await import('ioredis')).Redis(redisUrl, {
        connectTimeout: 500,
        maxRetriesPerRequest: 1,
        keyPrefix: redisKeyPrefix,
      })
    : undefined;
  if (redis) {
    // Reported once per outage, not on every reconnect attempt; limits are skipped meanwhile.
    let down = false;
    redis.on('error', (error: Error) => {
      if (!down)
        app.log.warn({ err: error }, 'Redis unreachable: rate limits are not enforced until it is back');
      down = true;
    });
    redis.on('ready', () => {
      if (down) app.log.info('Redis reachable again: rate limits enforced');
      down = false;
    });
    app.addHook('onClose', async () => {
      redis.disconnect();
    });
  }
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { store: namedRedisStore(redis, 'rate-limit:') } : {}),
    keyGenerator: clientAddressKey,
    // A Redis outage must not lock everyone out of signing in.
    skipOnError: true,
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, 'rate_limited', `Too many requests. Try again in ${context.after}.`, {
        'retry-after': String(Math.ceil(context.ttl / 1000)),
      }),
  });
}
