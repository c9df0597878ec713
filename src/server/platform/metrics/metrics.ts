import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { JobRun } from '../scheduler.js';

/** Seconds; fine at the low end, where license checks and most API answers fall. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const QUERY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300];

/** How a sign-in failed, as the security log records it (`wrong_password`, `unknown_account`, …). */
export interface SignInFailure {
  method: string;
  reason: string;
}

/**
 * Every metric the server exposes, in one registry per app (tests build several apps in one
 * process; a registry shared between them would mix their counts). The names are listed with what
 * they mean in docs/operating.md. The counting is done where each thing happens: the contexts are
 * handed the small recorders below (`licenseCheck`, `signIn`, …) by the composition, and never see
 * prom-client.
 */
export function createMetrics({ processMetrics }: { processMetrics: boolean }) {
  const registry = new Registry();
  // Event-loop lag, memory, CPU, handles: only where someone scrapes them, since the event-loop
  // monitor of each registry runs until the process ends.
  if (processMetrics) collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const httpRequests = new Histogram({
    name: 'portal_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status code, with the time to answer',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const licenseChecks = new Counter({
    name: 'portal_license_checks_total',
    help: 'License checks from machines by result (active, or why the check was refused)',
    labelNames: ['result'] as const,
    registers,
  });
  const signIns = new Counter({
    name: 'portal_sign_ins_total',
    help: 'Sessions started, by the sign-in methods used (pwd, otp, passkey, sso, …)',
    labelNames: ['method'] as const,
    registers,
  });
  const signInFailures = new Counter({
    name: 'portal_sign_in_failures_total',
    help: 'Sign-in attempts refused, by method and reason',
    labelNames: ['method', 'reason'] as const,
    registers,
  });
  const webhookFailures = new Counter({
    name: 'portal_webhook_delivery_failures_total',
    help: 'Webhook delivery attempts that failed; final="true" when the delivery has no attempts left',
    labelNames: ['final'] as const,
    registers,
  });
  const queryDuration = new Histogram({
    name: 'portal_db_query_duration_seconds',
    help: 'Database statements run through the query builder, by kind (select, insert, update, delete, other)',
    labelNames: ['statement', 'outcome'] as const,
    buckets: QUERY_BUCKETS,
    registers,
  });
  const jobLag = new Gauge({
    name: 'portal_scheduler_job_lag_seconds',
    help: "How late a scheduled job's latest run started: seconds past its previous start plus the interval",
    labelNames: ['job'] as const,
    registers,
    // Only the instance holding the scheduler's lease runs jobs; across a cluster take the worst.
    aggregator: 'max',
  });
  const jobDuration = new Histogram({
    name: 'portal_scheduler_job_duration_seconds',
    help: 'How long each run of a scheduled job took',
    labelNames: ['job'] as const,
    buckets: JOB_BUCKETS,
    registers,
  });
  const jobFailures = new Counter({
    name: 'portal_scheduler_job_failures_total',
    help: 'Scheduled job runs that threw (the job runs again at the next interval)',
    labelNames: ['job'] as const,
    registers,
  });
  const jobLastRun = new Gauge({
    name: 'portal_scheduler_job_last_run_timestamp_seconds',
    help: 'When a scheduled job last finished (Unix seconds); alert on time() minus this',
    labelNames: ['job'] as const,
    registers,
    aggregator: 'max',
  });

  return {
    registry,
    /** Whether the process metrics are collected (only when /metrics is served). */
    processMetrics,
    httpRequests,
    queryDuration,
    licenseCheck: (result: string) => licenseChecks.inc({ result }),
    signIn: (methods: readonly string[]) => signIns.inc({ method: methods.join('+') }),
    signInFailed: ({ method, reason }: SignInFailure) => signInFailures.inc({ method, reason }),
    webhookAttemptFailed: (final: boolean) => webhookFailures.inc({ final: String(final) }),
    jobRun(run: JobRun) {
      jobLag.set({ job: run.job }, run.lagSeconds);
      jobDuration.observe({ job: run.job }, run.durationSeconds);
      jobLastRun.set({ job: run.job }, run.finishedAt);
      if (run.failed) jobFailures.inc({ job: run.job });
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
