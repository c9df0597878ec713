import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { describeOnEveryDatabase, WEB_API_KEY } from '../../support/test-server.js';
import { activatedMachine } from '../helpers/license-helpers.js';

/** Debian's `prometheus` package (.ci/run installs it). */
const PROMETHEUS = '/usr/bin/prometheus';
const METRICS_TOKEN = randomBytes(24).toString('base64url');
const CHECK_ROUTE = '/api/v1/licensing/status';

/** A port free a moment ago, for Prometheus' own web server. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Asks again (every 200 ms, up to `timeoutMs`) until `probe` answers something. */
async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 40_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const answer = await probe();
      if (answer !== undefined) return answer;
    } catch (error) {
      last = error;
    }
    await pause(200);
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

/** A Prometheus started for the test: scraping `target` every second with the token. */
async function startPrometheus(target: string) {
  const dir = await mkdtemp(join(tmpdir(), 'portal-prometheus-'));
  const port = await freePort();
  const config = [
    'global:',
    '  scrape_interval: 1s',
    '  evaluation_interval: 1s',
    'scrape_configs:',
    '  - job_name: portal',
    '    scrape_interval: 1s',
    '    scrape_timeout: 1s',
    '    metrics_path: /metrics',
    '    authorization:',
    '      type: Bearer',
    `      credentials: ${METRICS_TOKEN}`,
    '    static_configs:',
    `      - targets: ['${target}']`,
  ].join('\n');
  await writeFile(join(dir, 'prometheus.yml'), `${config}\n`);
  const output: string[] = [];
  const child: ChildProcess = spawn(
    PROMETHEUS,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;

  /** One instant query's vector result. */
  const query = async (promql: string): Promise<{ metric: Record<string, string>; value: number }[]> => {
    const response = await fetch(`${base}/api/v1/query?${new URLSearchParams({ query: promql })}`);
    const body = (await response.json()) as {
      status: string;
      data: { result: { metric: Record<string, string>; value: [number, string] }[] };
    };
    if (body.status !== 'success') throw new Error(`query failed: ${JSON.stringify(body)}`);
    return body.data.result.map(({ metric, value }) => ({ metric, value: Number(value[1]) }));
  };

  return {
    query,
    /** The scrape target's health and last error, as Prometheus reports it. */
    async target(): Promise<{ health: string; lastError: string } | undefined> {
      const response = await fetch(`${base}/api/v1/targets`);
      const body = (await response.json()) as {
        data: { activeTargets: { health: string; lastError: string }[] };
      };
      return body.data.activeTargets[0];
    },
    output: () => output.join(''),
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const prometheusMissing = !existsSync(PROMETHEUS);

describe.skipIf(prometheusMissing)(
  prometheusMissing
    ? `Prometheus scraping the server [skipped: ${PROMETHEUS} is absent; apt-get install prometheus]`
    : 'Prometheus scraping the server',
  () => {
    describeOnEveryDatabase(
      'licence checks under load',
      (server) => {
        let prometheus: Awaited<ReturnType<typeof startPrometheus>> | undefined;
        afterAll(async () => prometheus?.stop());

        it('reads the license-check rate and p99 back from Prometheus', { timeout: 90_000 }, async () => {
          const s = server();
          const { license, hw } = await activatedMachine(s);
          const base = await s.listen();
          prometheus = await startPrometheus(new URL(base).host);
          const p = prometheus;
          await until(`Prometheus to scrape ${base} (${p.output()})`, async () => {
            const target = await p.target();
            return target?.health === 'up' ? target : undefined;
          });

          // A steady load of checks over the socket, two at a time, until Prometheus has seen it.
          let checks = 0;
          let stopping = false;
          const url = `${base}${CHECK_ROUTE}?${new URLSearchParams({ license_key: license.license_key, hardware_id: hw })}`;
          const client = async () => {
            while (!stopping) {
              const response = await fetch(url, { headers: { 'x-api-key': WEB_API_KEY } });
              expect(response.status).toBe(200);
              await response.arrayBuffer();
              checks += 1;
            }
          };
          const clients = [client(), client()];
          const rateQuery = 'sum(rate(portal_license_checks_total{result="active"}[5s]))';
          const p99Query = `histogram_quantile(0.99, sum by (le) (rate(portal_http_request_duration_seconds_bucket{route="${CHECK_ROUTE}"}[5s])))`;
          let rate: number;
          let p99: number;
          try {
            [rate, p99] = await until('a license-check rate and p99 in Prometheus', async () => {
              const [rateResult] = await p.query(rateQuery);
              const [p99Result] = await p.query(p99Query);
              const seen = [rateResult?.value, p99Result?.value];
              return seen.every((value) => value !== undefined && Number.isFinite(value) && value > 0)
                ? (seen as [number, number])
                : undefined;
            });
          } finally {
            stopping = true;
            await Promise.all(clients);
          }

          expect(checks).toBeGreaterThan(0);
          expect(rate).toBeGreaterThan(0);
          // Within the histogram's buckets: a check on this machine answers well within 10 s.
          expect(p99).toBeGreaterThan(0);
          expect(p99).toBeLessThanOrEqual(10);
          // Every check made is in Prometheus once it has scraped after the load.
          const counted = await until(`Prometheus to count all ${checks} checks`, async () => {
            const [total] = await p.query('portal_license_checks_total{result="active"}');
            return total?.value === checks ? total.value : undefined;
          });
          expect(counted).toBe(checks);
          const [requests] = await p.query(
            `sum(portal_http_request_duration_seconds_count{route="${CHECK_ROUTE}",status_code="200"})`,
          );
          expect(requests?.value).toBe(checks);
        });
      },
      { env: { METRICS_TOKEN, LICENSE_CHECK_RATE_LIMIT_PER_MINUTE: '1000000' } },
    );
  },
);
