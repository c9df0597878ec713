import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Where the PostgreSQL runs of the server suites create their databases; unset skips them. */
export const TEST_POSTGRES_URL = process.env['TEST_POSTGRES_URL'];

export type DialectUnderTest = 'sqlite' | 'postgres';

export const postgresSkipReason =
  'TEST_POSTGRES_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/postgres)';

async function withAdminClient<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A fresh, empty PostgreSQL database for one suite; returns its URL. */
export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!TEST_POSTGRES_URL) throw new Error(postgresSkipReason);
  const name = `portal_test_${randomBytes(6).toString('hex')}`;
  await withAdminClient((client) => client.query(`create database ${name}`));
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      withAdminClient((client) => client.query(`drop database if exists ${name} with (force)`)).then(
        () => undefined,
      ),
  };
}
