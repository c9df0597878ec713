import { sql } from 'kysely';
import type { DbOrTransaction } from './database.js';

/** A savepoint's own statement failed: what the transaction holds is not known, so it must end. */
export class SavepointFailed extends Error {
  constructor(statement: string, cause: unknown) {
    super(`${statement} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'SavepointFailed';
  }
}

async function run(trx: DbOrTransaction, statement: string): Promise<void> {
  try {
    await sql.raw(statement).execute(trx);
  } catch (error) {
    throw new SavepointFailed(statement, error);
  }
}

/**
 * Runs `work` in a savepoint of the transaction `trx` is in: when it throws, what it wrote is undone
 * alone, the transaction goes on, and its error is thrown again. When the savepoint's own
 * statements fail, {@link SavepointFailed} is thrown and the transaction should be given up.
 * `name` must be a plain identifier.
 */
export async function inSavepoint<T>(trx: DbOrTransaction, name: string, work: () => Promise<T>): Promise<T> {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`a savepoint's name must be a plain identifier: ${name}`);
  await run(trx, `savepoint ${name}`);
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await run(trx, `rollback to savepoint ${name}`);
    await run(trx, `release savepoint ${name}`);
    throw error;
  }
  await run(trx, `release savepoint ${name}`);
  return result;
}
