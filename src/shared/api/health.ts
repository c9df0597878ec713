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

/** `/health/live`: the process answers (nothing else is checked, so a restart is the right cure). */
export const livenessSchema = z
  .object({ status: z.literal('ok'), uptime_seconds: z.number().int() })
  .meta({ id: 'Liveness' });
export type Liveness = z.infer<typeof livenessSchema>;

export const readinessChecks = ['ok', 'failed', 'unknown'] as const;
export type ReadinessCheck = (typeof readinessChecks)[number];
export const readinessFailures = [
  'shutting_down',
  'database_unreachable',
  'migrations_pending',
  'worker_stopped',
] as const;
export type ReadinessFailure = (typeof readinessFailures)[number];

/** `/health/ready`: each part the server needs, by name (draining, database, migrations, mail, webhooks, scheduler). */
export const readinessSchema = z
  .object({
    status: z.literal('ok'),
    checks: z
      .record(z.string(), z.enum(readinessChecks))
      .describe('Each part: ok, failed, or unknown (migrations while the database does not answer)'),
    version: z.string(),
  })
  .meta({ id: 'Readiness' });
export type Readiness = z.infer<typeof readinessSchema>;

/** The 503 of `/health/ready`: the same checks, the parts that failed, and the error shape. */
export const readinessUnavailableSchema = readinessSchema
  .extend({
    status: z.literal('unavailable'),
    failed: z.array(z.string()).describe('The parts that failed, e.g. ["database"] or ["mail"]'),
    detail: z.string(),
    message: z.string(),
    code: z
      .enum(readinessFailures)
      .describe(
        'The first failed part: shutting_down (draining before it stops), database_unreachable, migrations_pending, worker_stopped (mail, webhooks or scheduler)',
      ),
  })
  .meta({ id: 'ReadinessUnavailable' });
export type ReadinessUnavailable = z.infer<typeof readinessUnavailableSchema>;
