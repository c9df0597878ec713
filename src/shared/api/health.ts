import { z } from 'zod';

export const healthResponseSchema = z
  .object({
    status: z.enum(['ok', 'unavailable']),
    database: z.enum(['ok', 'unreachable']),
    version: z.string(),
    uptime_seconds: z.number().int(),
  })
  .meta({ id: 'Health' });
export type HealthResponse = z.infer<typeof healthResponseSchema>;

/** The 503 answer: the status fields plus the error shape every other refusal has. */
export const healthUnavailableSchema = healthResponseSchema
  .extend({
    status: z.literal('unavailable'),
    detail: z.string(),
    message: z.string(),
    code: z
      .enum(['shutting_down', 'database_unreachable'])
      .describe('shutting_down: the server is draining before it stops; send requests to another instance'),
  })
  .meta({ id: 'HealthUnavailable' });
export type HealthUnavailable = z.infer<typeof healthUnavailableSchema>;
