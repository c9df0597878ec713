import type { CompiledQuery, Compilable } from 'kysely';
import type { DbOrTransaction } from './database.js';

/**
 * A query built and compiled once per dialect, then run with new values. Kysely builds a tree of
 * frozen nodes and compiles it to SQL for every query: 30 to 50 µs each, measured, where SQLite
 * answers a lookup by key in under 20. A hot read of several statements (a usage page read, an API
 * token's caller) paid that for each; these pay it once.
 *
 * `build` gets a placeholder for each value, in order, and must use every one of them exactly where
 * a value goes (a `where`, an `in` list of a fixed length, a `limit`); values it writes itself stay
 * as they are. The SQL never holds a value: the driver binds them as it would any query's.
 */
export function preparedQuery<Values extends unknown[], Row>(
  build: (db: DbOrTransaction, ...placeholders: Values) => Compilable<Row>,
): (db: DbOrTransaction, ...values: Values) => Promise<Row[]> {
  // Per dialect: the tests run the same process on SQLite and PostgreSQL.
  const compiledByAdapter = new Map<unknown, { query: CompiledQuery<Row>; slots: (number | undefined)[] }>();

  function compile(db: DbOrTransaction, count: number) {
    const placeholders = Array.from({ length: count }, (_, index) => `\u0000placeholder ${index}\u0000`);
    const query = build(db, ...(placeholders as Values)).compile();
    const slots = query.parameters.map((parameter) => {
      const index = placeholders.indexOf(parameter as string);
      return index < 0 ? undefined : index;
    });
    for (const [index] of placeholders.entries())
      if (slots.filter((slot) => slot === index).length !== 1)
        throw new Error(`a prepared query must use placeholder ${index} exactly once: ${query.sql}`);
    return { query, slots };
  }

  return async (db, ...values) => {
    const adapter = db.getExecutor().adapter;
    let compiled = compiledByAdapter.get(adapter.constructor);
    if (!compiled) {
      compiled = compile(db, values.length);
      compiledByAdapter.set(adapter.constructor, compiled);
    }
    const { query, slots } = compiled;
    const parameters = slots.map((slot, index) =>
      slot === undefined ? query.parameters[index] : values[slot],
    );
    const result = await db.executeQuery<Row>({ ...query, parameters });
    return result.rows;
  };
}
