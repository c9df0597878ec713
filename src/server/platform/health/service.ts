import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';
import type { Drain } from '../drain.js';
import { pingDatabase } from './repository.js';

/** Why the server should get no new requests, or undefined while it can do its work. */
export type Unreadiness = 'shutting_down' | 'database_unreachable';

/** Whether the server can do its work: the database answers and it is not draining to stop. */
export function createHealthService({ db, drain }: { db: Db; drain: Drain }) {
  return {
    async databaseUp(log: FastifyBaseLogger): Promise<boolean> {
      try {
        await pingDatabase(db);
        return true;
      } catch (error) {
        log.error({ err: error }, 'health check: database unreachable');
        return false;
      }
    },
    /** Draining comes first: a balancer must stop sending here even while the database answers. */
    unreadiness(databaseUp: boolean): Unreadiness | undefined {
      if (drain.draining) return 'shutting_down';
      return databaseUp ? undefined : 'database_unreachable';
    },
  };
}

export type HealthService = ReturnType<typeof createHealthService>;
