import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.js';
import { pingDatabase } from './repository.js';

/** Whether the server can do its work: today, whether the database answers. */
export function createHealthService({ db }: { db: Db }) {
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
  };
}

export type HealthService = ReturnType<typeof createHealthService>;
