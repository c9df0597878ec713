import type { KyselyPlugin, OperationNode } from 'kysely';
import { createDatabase, type DatabaseHandle } from '../../src/server/platform/db/database.js';
import type { Config } from '../../src/server/platform/config.js';

/** The statements a piece of work ran: how many, and which tables its selects read, in order. */
export interface QueryRecorder {
  /** Forgets what was recorded, so the next work is counted alone. */
  reset(): void;
  statements(): number;
  /** How many selects read from `table` (as their first FROM) since the last reset. */
  readsOf(table: string): number;
}

const tableOf = (node: OperationNode | undefined): string | undefined => {
  if (!node) return undefined;
  if (node.kind === 'TableNode')
    return (node as unknown as { table: { identifier: { name: string } } }).table.identifier.name;
  if (node.kind === 'AliasNode') return tableOf((node as unknown as { node: OperationNode }).node);
  return undefined;
};

/**
 * The configured database with every statement recorded on its way to the driver (a Kysely plugin,
 * which transactions inherit): for tests that hold a flow to how often it reads the same rows.
 */
export function recordedDatabase(config: Config): { database: DatabaseHandle; recorder: QueryRecorder } {
  const handle = createDatabase(config);
  let count = 0;
  let reads: string[] = [];
  const plugin: KyselyPlugin = {
    transformQuery({ node }) {
      count += 1;
      if (node.kind === 'SelectQueryNode') {
        const table = tableOf(node.from?.froms[0]);
        if (table) reads.push(table);
      }
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return {
    database: { ...handle, db: handle.db.withPlugin(plugin) },
    recorder: {
      reset() {
        count = 0;
        reads = [];
      },
      statements: () => count,
      readsOf: (table) => reads.filter((read) => read === table).length,
    },
  };
}
