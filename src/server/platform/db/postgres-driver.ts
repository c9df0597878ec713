import { createRequire } from 'node:module';
import type pg from 'pg';

const require = createRequire(import.meta.url);

/**
 * The PostgreSQL driver, read at the first PostgreSQL connection: a server or command on SQLite
 * never loads it (a tenth of a second of every start otherwise).
 */
export function postgresDriver(): typeof pg {
  return require('pg') as typeof pg;
}
