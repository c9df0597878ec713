import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { describeOnEveryDatabase, STRONG_PASSWORD } from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import { activatedMachine, member, statusOf, validate } from '../helpers/license-helpers.js';

const METRICS_TOKEN = randomBytes(24).toString('base64url');

/** The value of one series in Prometheus' text format, or undefined when it is not there. */
function sampleOf(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describeOnEveryDatabase(
  'GET /metrics on the main port, behind METRICS_TOKEN',
  (server) => {
    const scrape = async (authorization?: string) =>
      server().app.inject({
        url: '/metrics',
        headers: authorization === undefined ? {} : { authorization },
      });

    it('refuses a scrape without the token, or with another, in the error shape', async () => {
      for (const authorization of [undefined, 'Bearer wrong-token-of-some-length', METRICS_TOKEN]) {
        const refused = await scrape(authorization);
        expect(refused.statusCode).toBe(401);
        expect(refused.json()).toMatchObject({ code: 'invalid_metrics_token' });
        expect(refused.json().detail).toBe(refused.json().message);
      }
    });

    it('counts requests by route pattern and status, license checks by result, sign-ins and failures', async () => {
      const s = server();
      const { owner, license, hw } = await activatedMachine(s);
      expect((await validate(s, license.license_key, hw)).statusCode).toBe(200);
      expect((await statusOf(s, license.license_key, hw)).statusCode).toBe(200);
      expect((await validate(s, license.license_key, 'hw-never-activated')).statusCode).toBe(403);
      expectApiError(
        await s.api({
          method: 'POST',
          path: '/auth/login/json',
          body: { email: owner.email, password: `${STRONG_PASSWORD} wrong` },
        }),
        401,
        'invalid_credentials',
      );
      await s.api({ path: `/licenses/${license.id}`, token: owner.token });
      s.clock.freeze();
      await s.app.scheduler.runOnce();

      const response = await scrape(`Bearer ${METRICS_TOKEN}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = response.body;
      const series = (name: string) => sampleOf(text, name);

      expect(series('portal_license_checks_total{result="active"}')).toBe(2);
      expect(series('portal_license_checks_total{result="not_activated"}')).toBe(1);
      // Two accounts signed in with a password (activatedMachine's member), one wrong password.
      expect(series('portal_sign_ins_total{method="pwd"}')).toBeGreaterThanOrEqual(1);
      expect(series('portal_sign_in_failures_total{method="pwd",reason="wrong_password"}')).toBe(1);
      // The route's pattern, not the URL with the id.
      expect(
        series(
          'portal_http_request_duration_seconds_count{method="GET",route="/api/v1/licenses/:id",status_code="200"}',
        ),
      ).toBe(1);
      expect(text).not.toContain(license.id);
      expect(
        series(
          'portal_http_request_duration_seconds_count{method="POST",route="/api/v1/licenses/validate",status_code="403"}',
        ),
      ).toBe(1);
      expect(series('portal_outbox_depth{queue="mail"}')).toBeGreaterThanOrEqual(0);
      expect(series('portal_outbox_depth{queue="webhooks"}')).toBeGreaterThanOrEqual(0);
      expect(series('portal_outbox_oldest_age_seconds{queue="webhooks"}')).toBeGreaterThanOrEqual(0);
      expect(
        series('portal_db_query_duration_seconds_count{statement="select",outcome="ok"}'),
      ).toBeGreaterThan(0);
      expect(series('portal_scheduler_job_lag_seconds{job="license expiry notices"}')).toBe(0);
      expect(series('portal_scheduler_job_last_run_timestamp_seconds{job="license expiry notices"}')).toBe(
        s.clock.now().getTime() / 1000,
      );
      // The process: event-loop lag and memory (prom-client's default metrics).
      expect(series('nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
      expect(series('process_resident_memory_bytes')).toBeGreaterThan(0);
      if (s.dialect === 'postgres') {
        expect(series('portal_db_pool_connections{state="max"}')).toBe(10);
        expect(series('portal_db_pool_connections{state="total"}')).toBeGreaterThan(0);
      } else expect(text).not.toContain('portal_db_pool_connections');
    });

    it('shows how late a scheduled job started: past its previous start plus the interval', async () => {
      const s = server();
      s.clock.freeze();
      await s.app.scheduler.runOnce();
      // Due a minute later; started 65 s after that.
      s.clock.advance(s.config.schedulerIntervalMs * 2 + 5_000);
      await s.app.scheduler.runOnce();
      const text = (await scrape(`Bearer ${METRICS_TOKEN}`)).body;
      expect(sampleOf(text, 'portal_scheduler_job_lag_seconds{job="license expiry notices"}')).toBe(
        s.config.schedulerIntervalMs / 1000 + 5,
      );
      expect(
        sampleOf(text, 'portal_scheduler_job_duration_seconds_count{job="license expiry notices"}'),
      ).toBeGreaterThanOrEqual(2);
    });

    it('shows mail waiting in the outbox, with the age of the oldest', async () => {
      const s = server();
      // Queued by a sign-up, then found by the scrape before the worker's next look.
      await s.app.mailOutbox.close();
      await s.api({
        method: 'POST',
        path: '/auth/register',
        body: { email: `queued.${randomBytes(4).toString('hex')}@example.com`, password: STRONG_PASSWORD },
      });
      s.clock.advance(90_000);
      const text = (await scrape(`Bearer ${METRICS_TOKEN}`)).body;
      expect(sampleOf(text, 'portal_outbox_depth{queue="mail"}')).toBeGreaterThanOrEqual(1);
      expect(sampleOf(text, 'portal_outbox_oldest_age_seconds{queue="mail"}')).toBeGreaterThanOrEqual(90);
    });
  },
  { env: { METRICS_TOKEN, LICENSE_CHECK_RATE_LIMIT_PER_MINUTE: '100000' } },
);

describeOnEveryDatabase('GET /metrics with neither METRICS_PORT nor METRICS_TOKEN', (server) => {
  it('is not served at all', async () => {
    const response = await server().app.inject({ url: '/metrics' });
    expect(response.statusCode).toBe(404);
    expect(server().app.metricsAddress()).toBeUndefined();
  });
});

describe('metrics on a port of their own', () => {
  describeOnEveryDatabase(
    'METRICS_PORT',
    (server) => {
      it('serves /metrics there once the server listens, not on the main port', async () => {
        const s = server();
        await member(s);
        const base = await s.listen();
        expect(s.app.metricsAddress()).toBeUndefined();
        await s.app.openMetricsPort();
        const address = s.app.metricsAddress();
        expect(address?.port).toBeGreaterThan(0);
        const scraped = await fetch(`http://127.0.0.1:${address?.port}/metrics`);
        expect(scraped.status).toBe(200);
        expect(await scraped.text()).toContain('portal_sign_ins_total{method="pwd"} 1');
        expect((await fetch(`http://127.0.0.1:${address?.port}/other`)).status).toBe(404);
        expect((await fetch(`${base}/metrics`)).status).toBe(404);
      });
    },
    { env: { METRICS_PORT: '0', METRICS_HOST: '127.0.0.1' } },
  );
});
