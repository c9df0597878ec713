// The benchmark's results: a readable table on stdout and a JSON file under bench/results/.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type autocannon from 'autocannon';

export interface LoadStats {
  label: string;
  endpoint: string;
  connections: number;
  requestsPerSecond: number;
  totalRequests: number;
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

export interface PhaseReport {
  name: string;
  description: string;
  durationSeconds: number;
  loads: LoadStats[];
  server: {
    eventLoopLagMs: { p50: number; p99: number; max: number } | undefined;
    eventLoopUtilization: number | undefined;
    sampledPeakRssBytes: number | undefined;
  };
}

export interface TargetReport {
  description: string;
  thresholdMs: number;
  healthP99Ms: number;
  healthFailures: number;
  passed: boolean;
}

export interface BenchReport {
  startedAt: string;
  finishedAt: string;
  environment: {
    node: string;
    platform: string;
    cpus: number;
    cpuModel: string;
    uvThreadpoolSize: string;
    database: 'sqlite' | 'postgres';
    server: string;
  };
  settings: Record<string, number | string | boolean>;
  phases: PhaseReport[];
  server: { startupRssBytes: number | undefined; peakRssBytes: number | undefined; peakRssSource: string };
  target: TargetReport;
}

export const round = (value: number, digits = 1): number => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};

export function toLoadStats(label: string, endpoint: string, result: autocannon.Result): LoadStats {
  return {
    label,
    endpoint,
    connections: result.connections,
    requestsPerSecond: round(result.requests.average),
    totalRequests: result.requests.total,
    latencyMs: {
      mean: round(result.latency.average, 2),
      p50: round(result.latency.p50, 2),
      p90: round(result.latency.p90, 2),
      p99: round(result.latency.p99, 2),
      max: round(result.latency.max, 2),
    },
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

const mib = (bytes: number | undefined): string =>
  bytes === undefined ? 'n/a' : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

const optional = (value: number | undefined, format: (value: number) => string): string =>
  value === undefined ? 'n/a' : format(value);

function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  // The first column is text (left-aligned), the rest are numbers (right-aligned).
  const line = (cells: string[]) =>
    cells
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join('  ');
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [line(header), rule, ...rows.map(line)].join('\n');
}

export function formatReport(report: BenchReport): string {
  const { environment } = report;
  const loadRows = report.phases.flatMap((phase) =>
    phase.loads.map((load) => [
      `${phase.name}: ${load.label}`,
      String(load.connections),
      load.requestsPerSecond.toFixed(1),
      load.latencyMs.p50.toFixed(1),
      load.latencyMs.p90.toFixed(1),
      load.latencyMs.p99.toFixed(1),
      load.latencyMs.max.toFixed(1),
      String(load.totalRequests),
      String(load.non2xx + load.errors),
    ]),
  );
  const serverRows = report.phases.map((phase) => [
    phase.name,
    optional(phase.server.eventLoopLagMs?.p99, (value) => value.toFixed(1)),
    optional(phase.server.eventLoopLagMs?.max, (value) => value.toFixed(1)),
    optional(phase.server.eventLoopUtilization, (value) => `${(value * 100).toFixed(0)}%`),
    mib(phase.server.sampledPeakRssBytes),
  ]);
  const { target } = report;
  return [
    '',
    `Server: ${environment.server}, ${environment.database}; Node ${environment.node} on ${environment.platform}, ` +
      `${environment.cpus} CPU(s) (${environment.cpuModel}); UV_THREADPOOL_SIZE ${environment.uvThreadpoolSize}`,
    '',
    table(
      ['phase: load', 'conns', 'req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'requests', 'failed'],
      loadRows,
    ),
    '',
    table(['phase (server side)', 'loop lag p99 ms', 'loop lag max ms', 'loop busy', 'peak RSS'], serverRows),
    '',
    `Server RSS: ${mib(report.server.startupRssBytes)} after start-up, peak ${mib(report.server.peakRssBytes)} ` +
      `(${report.server.peakRssSource})`,
    `Target: ${target.description}: p99 ${target.healthP99Ms.toFixed(1)} ms, ` +
      `${target.healthFailures} failed -> ${target.passed ? 'PASS' : 'FAIL'}`,
    '',
  ].join('\n');
}

/** Writes bench/results/<timestamp>.json; returns its path. */
export function writeReport(resultsDir: string, report: BenchReport): string {
  mkdirSync(resultsDir, { recursive: true });
  const path = join(resultsDir, `${report.startedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
  return path;
}
