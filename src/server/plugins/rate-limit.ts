import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { HttpError } from '../http-error.js';

/**
 * Per-address limits for the routes that opt in with `config.rateLimit`. Counters live in Redis
 * when REDIS_URL is set, so every instance behind a load balancer shares them; otherwise in memory.
 */
export async function registerRateLimit(app: FastifyInstance, redisUrl: string | undefined): Promise<void> {
  const redis = redisUrl ? new Redis(redisUrl, { connectTimeout: 500, maxRetriesPerRequest: 1 }) : undefined;
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
    redis,
    nameSpace: 'portal-rate-limit:',
    // A Redis outage must not lock everyone out of signing in.
    skipOnError: true,
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, 'rate_limited', `Too many requests. Try again in ${context.after}.`, {
        'retry-after': String(Math.ceil(context.ttl / 1000)),
      }),
  });
}
