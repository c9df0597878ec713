// Preloaded into the server process by the benchmark (`node --import ./bench/server-probe.ts`): it
// measures the event loop from inside, and answers snapshot requests over the IPC channel. It does
// nothing when the process has no IPC channel, and never changes how the server behaves.
import cluster from 'node:cluster';
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import { isSnapshotRequest, type ProbeSnapshot } from './probe-protocol.js';

const RESOLUTION_MS = 5;

if (process.send) {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  let utilizationMark = performance.eventLoopUtilization();
  // Each collection's pause, so a latency tail can be told apart from the collector's.
  let gc = { count: 0, totalMs: 0, maxMs: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.count += 1;
      gc.totalMs += entry.duration;
      gc.maxMs = Math.max(gc.maxMs, entry.duration);
    }
  }).observe({ entryTypes: ['gc'] });

  // The histogram holds the interval between timer ticks; the lag is what exceeds the resolution.
  const lagMs = (nanoseconds: number): number =>
    Math.max(0, Math.round((nanoseconds / 1e6 - RESOLUTION_MS) * 10) / 10);

  process.on('message', (message: unknown) => {
    if (!isSnapshotRequest(message)) return;
    const now = performance.eventLoopUtilization();
    const snapshot: ProbeSnapshot = {
      type: 'bench-probe-snapshot',
      id: message.id,
      eventLoopLagMs: {
        p50: histogram.count > 0 ? lagMs(histogram.percentile(50)) : 0,
        p99: histogram.count > 0 ? lagMs(histogram.percentile(99)) : 0,
        max: histogram.count > 0 ? lagMs(histogram.max) : 0,
      },
      eventLoopUtilization: performance.eventLoopUtilization(now, utilizationMark).utilization,
      gc: { count: gc.count, totalMs: Math.round(gc.totalMs), maxMs: Math.round(gc.maxMs * 10) / 10 },
      maxRssBytes: process.resourceUsage().maxRSS * 1024,
    };
    utilizationMark = now;
    gc = { count: 0, totalMs: 0, maxMs: 0 };
    histogram.reset();
    process.send?.(snapshot);
  });
  // The channel must not keep the server alive once it wants to exit; but a cluster worker (the
  // server's WORKERS mode) lives through that channel: its listening socket is the primary's.
  if (!cluster.isWorker) process.channel?.unref();
}
