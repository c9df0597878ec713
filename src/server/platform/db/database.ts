import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  type Driver,
  Kysely,
  type LogEvent,
  PostgresDialect,
  SqliteDialect,
  type Transaction,
} from 'kysely';
import type pg from 'pg';
import { postgresDriver } from './postgres-driver.js';
import type { Database } from './tables.js';

export type Db = Kysely<Database>;
/** Repositories take either the database or a transaction, so services decide the unit of work. */
export type DbOrTransaction = Kysely<Database> | Transaction<Database>;
export type DialectName = 'sqlite' | 'postgres';

/**
 * Where the database is, for the one path that must not pay for a query builder: the license
 * check reads with a prepared statement of its own (on SQLite, over a connection of its own).
 */
export type RawConnection = { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; pool: pg.Pool };

export interface DatabaseHandle {
  db: Db;
  dialect: DialectName;
  raw: RawConnection;
}

export interface DatabaseOptions {
  databaseUrl: string | undefined;
  dataDir: string;
  /** Pool size for PostgreSQL; SQLite always has one connection. */
  poolSize?: number;
  /** Told about errors of idle PostgreSQL connections (a server restart or failover). */
  onConnectionError?: (error: Error) => void;
  /** Told of every statement run through Kysely, with its time (the metrics). */
  observeQuery?: (query: ObservedQuery) => void;
}

/** A statement's kind and time, as Kysely's log hook tells them. */
export interface ObservedQuery {
  statement: 'select' | 'insert' | 'update' | 'delete' | 'other';
  durationMs: number;
  failed: boolean;
  /** The statement's SQL, with placeholders where its values go (never the values). */
  sql: string;
}

const statementKinds: Record<string, ObservedQuery['statement']> = {
  SelectQueryNode: 'select',
  InsertQueryNode: 'insert',
  UpdateQueryNode: 'update',
  DeleteQueryNode: 'delete',
};

function queryLog(observe: ((query: ObservedQuery) => void) | undefined) {
  if (!observe) return undefined;
  return (event: LogEvent) =>
    observe({
      statement: statementKinds[event.query.query.kind] ?? 'other',
      durationMs: event.queryDurationMillis,
      failed: event.level === 'error',
      sql: event.query.sql,
    });
}

export const SQLITE_FILE_NAME = 'portal.sqlite';

/** The database holds password hashes and session tokens: only the server's own user may read it. */
const PRIVATE_FILE_MODE = 0o600;
const PRIVATE_DIRECTORY_MODE = 0o700;

function openSqlite(path: string): SqliteDatabase.Database {
  // Created owner-only before SQLite opens it, since SQLite gives its -wal and -shm files the
  // database file's mode; an older install's files, created 0644, are narrowed below.
  closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
  const sqlite = new SqliteDatabase(path);
  sqlite.pragma('journal_mode = WAL');
  for (const file of [path, `${path}-wal`, `${path}-shm`])
    if (existsSync(file)) chmodSync(file, PRIVATE_FILE_MODE);
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // Kysely's SQLite driver prepares every query anew; the same few SQL texts repeat, so keep them.
  const prepare = sqlite.prepare.bind(sqlite);
  const statements = new Map<string, SqliteDatabase.Statement>();
  sqlite.prepare = ((source: string) => {
    let statement = statements.get(source);
    if (!statement) {
      if (statements.size >= 1000) statements.clear();
      statement = prepare(source);
      statements.set(source, statement);
    }
    return statement;
  }) as typeof sqlite.prepare;
  return sqlite;
}

/**
 * SQLite transactions that take the write lock when they begin (`BEGIN IMMEDIATE`). SQLite has other
 * writers: the heartbeat thread, and the other processes of `WORKERS=N`. A deferred transaction
 * that read before another writer committed could not write afterwards (SQLITE_BUSY_SNAPSHOT,
 * which no busy timeout retries); one that holds the lock from its start just waits its turn.
 */
class ImmediateTransactionsSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    };
    return driver;
  }
}

/** Opens PostgreSQL when a URL is given, else the SQLite file in the data directory. */
export function createDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new (postgresDriver().Pool)({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
    });
    // Without a listener, an idle connection dropped by the server would crash the process; the
    // pool replaces it on the next query, so reporting it is enough.
    pool.on(
      'error',
      options.onConnectionError ?? ((error) => console.warn(`PostgreSQL connection lost: ${error.message}`)),
    );
    return {
      db: new Kysely<Database>({
        dialect: new PostgresDialect({ pool }),
        log: queryLog(options.observeQuery),
      }),
      dialect: 'postgres',
      raw: { dialect: 'postgres', pool },
    };
  }
  mkdirSync(options.dataDir, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  const file = join(options.dataDir, SQLITE_FILE_NAME);
  const sqlite = openSqlite(file);
  return {
    db: new Kysely<Database>({
      dialect: new ImmediateTransactionsSqliteDialect({ database: sqlite }),
      log: queryLog(options.observeQuery),
    }),
    dialect: 'sqlite',
    raw: { dialect: 'sqlite', file },
  };
}
