// Messages between the benchmark and bench/server-probe.ts inside the server process (IPC channel).

export interface ProbeSnapshotRequest {
  type: 'bench-probe-snapshot-request';
  id: number;
}

/** What the server's event loop did since the previous snapshot. */
export interface ProbeSnapshot {
  type: 'bench-probe-snapshot';
  id: number;
  /** Event-loop lag (how late a timer fired), milliseconds. */
  eventLoopLagMs: { p50: number; p99: number; max: number };
  /** Share of wall time the event loop was busy, 0..1. */
  eventLoopUtilization: number;
  /** Garbage collections since the previous snapshot: how many, their time together and the longest. */
  gc: { count: number; totalMs: number; maxMs: number };
  /** Peak resident set size of the process so far (getrusage), bytes. */
  maxRssBytes: number;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

export const isSnapshotRequest = (value: unknown): value is ProbeSnapshotRequest =>
  isObject(value) && value.type === 'bench-probe-snapshot-request' && typeof value.id === 'number';

export const isSnapshot = (value: unknown): value is ProbeSnapshot =>
  isObject(value) && value.type === 'bench-probe-snapshot' && typeof value.id === 'number';
