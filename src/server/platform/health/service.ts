import type { FastifyBaseLogger } from 'fastify';
import type { ReadinessCheck, ReadinessFailure } from '../../../shared/api/health.js';
import type { Db } from '../db/database.js';
import type { Drain } from '../drain.js';
import { appliedMigrationNames, pingDatabase } from './repository.js';

/** Why the server should get no new requests, or undefined while it can do its work. */
export type Unreadiness = 'shutting_down' | 'database_unreachable';

/** A loop the server depends on (the mail and webhook workers, the scheduler), named as readiness shows it. */
export interface WatchedLoop {
  readonly kind: string;
  alive(): boolean;
}

/** What /health/ready answers: each part's state and, when not ready, the first reason why. */
export interface Readiness {
  checks: Record<string, ReadinessCheck>;
  failure: ReadinessFailure | undefined;
  /** The parts that failed, in the order checked. */
  failed: string[];
}

/**
 * Whether the server can do its work: the database answers and it is not draining to stop; for
 * readiness also that the schema is the one this code expects and its background loops turn.
 */
export function createHealthService({
  db,
  drain,
  migrationNames,
  loops,
}: {
  db: Db;
  drain: Drain;
  /** Every migration this code knows: all must be applied. */
  migrationNames: readonly string[];
  /** Read at each probe: contexts add their workers as they register. */
  loops: () => readonly WatchedLoop[];
}) {
  async function databaseUp(log: FastifyBaseLogger): Promise<boolean> {
    try {
      await pingDatabase(db);
      return true;
    } catch (error) {
      log.error({ err: error }, 'health check: database unreachable');
      return false;
    }
  }

  async function migrationsCurrent(log: FastifyBaseLogger): Promise<boolean> {
    try {
      const applied = await appliedMigrationNames(db);
      return migrationNames.every((name) => applied.has(name));
    } catch (error) {
      log.error({ err: error }, 'health check: could not read the applied migrations');
      return false;
    }
  }

  return {
    databaseUp,
    /** Draining comes first: a balancer must stop sending here even while the database answers. */
    unreadiness(databaseUp: boolean): Unreadiness | undefined {
      if (drain.draining) return 'shutting_down';
      return databaseUp ? undefined : 'database_unreachable';
    },
    async readiness(log: FastifyBaseLogger): Promise<Readiness> {
      const checks: Record<string, ReadinessCheck> = { draining: drain.draining ? 'failed' : 'ok' };
      const database = await databaseUp(log);
      checks.database = database ? 'ok' : 'failed';
      // Without a database the schema cannot be read: unknown, not failed.
      checks.migrations = !database ? 'unknown' : (await migrationsCurrent(log)) ? 'ok' : 'failed';
      for (const loop of loops()) checks[loop.kind] = loop.alive() ? 'ok' : 'failed';
      const failed = Object.keys(checks).filter((part) => checks[part] === 'failed');
      const first = failed[0];
      const failure: ReadinessFailure | undefined =
        first === undefined
          ? undefined
          : first === 'draining'
            ? 'shutting_down'
            : first === 'database'
              ? 'database_unreachable'
              : first === 'migrations'
                ? 'migrations_pending'
                : 'worker_stopped';
      return { checks, failure, failed };
    },
  };
}

export type HealthService = ReturnType<typeof createHealthService>;
