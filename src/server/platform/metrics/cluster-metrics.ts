import type { Server } from 'node:http';
import { AggregatorRegistry, type Registry } from 'prom-client';
import type { Config } from '../config.js';
import { listenForScrapes } from './metrics-endpoint.js';

/**
 * WORKERS=N: each worker counts in its own registry and answers the primary's requests for it
 * over the cluster's IPC channel (prom-client's AggregatorRegistry).
 */
export function answerPrimaryScrapes(registry: Registry): void {
  // Constructing one adds the worker's listener for the primary's requests.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
}

/**
 * The primary serves METRICS_PORT with every worker's metrics added up (counters and histograms
 * summed; the gauges every worker reads alike from the database, such as queue depth, take the
 * largest). Undefined without METRICS_PORT (config refuses a token alone with WORKERS > 1).
 */
export async function serveClusterMetrics(settings: Config['metrics']): Promise<Server | undefined> {
  if (settings.port === undefined) return undefined;
  const aggregator = new AggregatorRegistry();
  return listenForScrapes(() => aggregator.clusterMetrics(), aggregator.contentType, {
    port: settings.port,
    host: settings.host,
    token: settings.token,
  });
}
