/** What one benchmark run does, read once from BENCH_* environment variables. */
export interface BenchSettings {
  /** Length of each measured phase. */
  phaseSeconds: number;
  /** Connections of the login-only phase. */
  loginConnections: number;
  /** Connections of the health load, alone and during the storm (the same, so the two compare). */
  healthConnections: number;
  /** Concurrent logins of the storm. */
  stormLoginConnections: number;
  /** The target: health p99 during the storm stays under this. */
  targetHealthP99Ms: number;
  /** Exit non-zero when the target fails. */
  strict: boolean;
  /** PostgreSQL instead of SQLite in the temporary data directory. */
  databaseUrl: string | undefined;
  /** Run the compiled dist/server/main.js instead of the sources through tsx. */
  useDist: boolean;
}

export const HEALTH_P99_TARGET_MS = 50;

export function integerFromEnv(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return value;
}

export const flagFromEnv = (name: string): boolean =>
  ['1', 'true', 'yes'].includes(process.env[name]?.trim() ?? '');

/** Phases are capped at 30 s so a whole run (three phases, warm-up, start-up) stays under two minutes. */
export function readSettings(): BenchSettings {
  const databaseUrl = process.env.BENCH_DATABASE_URL?.trim() || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('BENCH_DATABASE_URL must be a postgres:// URL (leave it unset for SQLite)');
  }
  return {
    phaseSeconds: integerFromEnv('BENCH_SECONDS', 10, 1, 30),
    loginConnections: integerFromEnv('BENCH_LOGIN_CONNECTIONS', 10, 1, 100),
    healthConnections: integerFromEnv('BENCH_HEALTH_CONNECTIONS', 50, 1, 200),
    stormLoginConnections: integerFromEnv('BENCH_STORM_LOGINS', 20, 1, 100),
    targetHealthP99Ms: HEALTH_P99_TARGET_MS,
    strict: flagFromEnv('BENCH_STRICT'),
    databaseUrl,
    useDist: flagFromEnv('BENCH_USE_DIST'),
  };
}
