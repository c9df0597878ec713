import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import {
  webhookDeliveryDetailSchema,
  webhookEndpointWithSecretSchema,
} from '../../../src/shared/api/webhooks.js';
import { pruneExpiredRows } from '../../../src/server/pruning.js';
import {
  MAX_ATTEMPTS,
  webhookRetryDelayMs,
} from '../../../src/server/integrations/webhooks/delivery-worker.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { activateBase, signIn, signInAgain, type SignedIn } from '../helpers/admin-helpers.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import { buyInSandbox, indianDetails, putBillingDetails } from '../helpers/invoice-helpers.js';
import {
  createEndpoint,
  deliverUntilSettled,
  deliveriesOf,
  type ReceivedDelivery,
  type Receiver,
  startReceiver,
  verifyWithClock,
} from './webhook-helpers.js';

// Short enough for the hanging endpoint's test, long enough that a quick answer on a busy machine
// is not cut off (delivery is at least once: a cut-off answer is sent again, see firstOfEach).
const TIMEOUT_MS = 4000;

/** What a receiver handles: each webhook-id once (it drops a repeat, as Standard Webhooks advises). */
const firstOfEach = (received: ReceivedDelivery[]) =>
  received.filter(
    (request, index) =>
      received.findIndex((other) => other.headers['webhook-id'] === request.headers['webhook-id']) === index,
  );

/** The failed attempts the metrics counted so far: with attempts left, and each delivery's last. */
async function deliveryFailures(s: TestServer): Promise<{ retried: number; final: number }> {
  const text = await s.app.metrics.registry.getSingleMetricAsString('portal_webhook_delivery_failures_total');
  const count = (final: boolean) => Number(new RegExp(`final="${final}"} (\\d+)`).exec(text)?.[1] ?? 0);
  return { retried: count(false), final: count(true) };
}

describe('webhook retry delays', () => {
  it('grow from seconds to hours, about a day in all, spread by at most 10 %', () => {
    const middle = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, index) =>
      webhookRetryDelayMs(index + 1, () => 0.5),
    );
    expect(middle).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    const total = middle.reduce((sum, delay) => sum + delay, 0);
    expect(total).toBeGreaterThan(20 * 3_600_000);
    expect(total).toBeLessThan(36 * 3_600_000);
    expect(webhookRetryDelayMs(1, () => 0)).toBe(4_500);
    expect(webhookRetryDelayMs(1, () => 1)).toBe(5_500);
  });
});

describeOnEveryDatabase(
  'outgoing webhooks',
  (server) => {
    let admin: SignedIn;
    let owner: SignedIn;
    let receiver: Receiver;

    beforeAll(async () => {
      admin = await signIn(server(), 'admin', 'hooks-admin');
      owner = await signIn(server(), 'user', 'hooks-owner');
    });
    beforeEach(async () => {
      receiver = await startReceiver(server);
      server().clock.freeze();
      // Earlier tests moved the clock hours ahead: their tokens have expired.
      admin = await signInAgain(server(), admin);
      owner = await signInAgain(server(), owner);
    });
    afterEach(async () => {
      await receiver.close();
      // Each test's endpoints go, so the next test's events reach only its own receiver.
      await server().app.db.deleteFrom('webhook_endpoints').execute();
    });

    /** A fresh token after the test clock moved hours ahead. */
    const adminToken = async (s: TestServer) => {
      admin = await signInAgain(s, admin);
      return admin.token;
    };

    const createLicense = (s: TestServer) =>
      s.api({
        method: 'POST',
        path: '/admin/licenses',
        token: admin.token,
        body: { user_id: owner.id, plan_id: 'pro-yearly' },
      });

    it('delivers a license.created event verified by standardwebhooks: fails three times, then succeeds, four attempts logged with growing backoff; a redelivery keeps the id, so the receiver detects the replay', async () => {
      const s = server();
      const failuresBefore = await deliveryFailures(s);
      const endpoint = await createEndpoint(s, admin.token, {
        url: `${receiver.url}/hooks`,
        event_types: ['license.created'],
        description: 'CRM sync',
      });
      webhookEndpointWithSecretSchema.parse(endpoint);
      expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
      receiver.secrets = [endpoint.secret];
      receiver.script = [500, 500, 500];

      const created = await createLicense(s);
      expect(created.statusCode, created.body).toBe(201);
      const licenseId = created.json<{ license_id: string }>().license_id;

      await deliverUntilSettled(s);

      expect(receiver.received).toHaveLength(4);
      // The metrics count the three failed attempts, none of them the last.
      expect(await deliveryFailures(s)).toEqual({
        retried: failuresBefore.retried + 3,
        final: failuresBefore.final,
      });
      const ids = new Set(receiver.received.map((request) => request.headers['webhook-id']));
      expect(ids.size).toBe(1);
      for (const request of receiver.received) {
        expect(request.verifiedId, 'every attempt verifies').toMatch(/^msg_/);
        expect(request.path).toBe('/hooks');
        expect(request.headers['content-type']).toBe('application/json');
      }
      const payload = JSON.parse(receiver.received[0]!.body) as {
        type: string;
        timestamp: string;
        data: { license: { id: string; user_id: string; status: string } };
      };
      expect(payload.type).toBe('license.created');
      expect(new Date(payload.timestamp).toISOString()).toBe(payload.timestamp);
      expect(payload.data.license).toMatchObject({ id: licenseId, user_id: owner.id, status: 'active' });
      expect(JSON.stringify(payload)).not.toContain('license_key');

      const token = await adminToken(s);
      const [delivery] = await deliveriesOf(s, token, endpoint.id);
      webhookDeliveryDetailSchema.parse(delivery);
      expect(delivery).toMatchObject({
        status: 'succeeded',
        attempts: 4,
        event_type: 'license.created',
        last_status_code: 200,
      });
      expect(delivery!.attempt_log.map((attempt) => attempt.response_status)).toEqual([500, 500, 500, 200]);
      expect(delivery!.attempt_log.map((attempt) => attempt.error)).toEqual([
        'HTTP 500',
        'HTTP 500',
        'HTTP 500',
        null,
      ]);
      for (const attempt of delivery!.attempt_log) {
        expect(attempt.duration_ms).toBeGreaterThanOrEqual(0);
        expect(attempt.request_headers['webhook-id']).toBe(delivery!.event_id);
        expect(attempt.request_body).toBe(delivery!.payload);
      }
      expect(delivery!.attempt_log[0]!.response_body).toBe('answered 500');
      const starts = delivery!.attempt_log.map((attempt) => new Date(attempt.started_at).getTime());
      const gaps = starts.slice(1).map((start, index) => start - starts[index]!);
      // 5 s, 5 min and 30 min, each within the 10 % jitter.
      expect(gaps[0]).toBeGreaterThanOrEqual(4_500);
      expect(gaps[0]).toBeLessThanOrEqual(5_500);
      expect(gaps[1]).toBeGreaterThanOrEqual(270_000);
      expect(gaps[2]).toBeGreaterThanOrEqual(1_620_000);
      expect(gaps[1]!).toBeGreaterThan(gaps[0]!);
      expect(gaps[2]!).toBeGreaterThan(gaps[1]!);
      expect(delivery!.attempt_log.at(-1)!.next_attempt_at).toBeNull();
      expect(delivery!.attempt_log[0]!.next_attempt_at).toBe(delivery!.attempt_log[1]!.started_at);

      // Sent again by an administrator: the same webhook-id, so the receiver knows it had it.
      const redelivered = await s.api({
        method: 'POST',
        path: `/admin/webhooks/deliveries/${delivery!.id}/redeliver`,
        token,
      });
      expect(redelivered.statusCode, redelivered.body).toBe(202);
      expect(redelivered.json()).toMatchObject({ event_id: delivery!.event_id, redelivery_of: delivery!.id });
      await deliverUntilSettled(s);
      expect(receiver.received).toHaveLength(5);
      expect(receiver.received[4]).toMatchObject({ verifiedId: delivery!.event_id, replay: true });
      expect(receiver.received.slice(0, 4).every((request) => !request.replay)).toBe(true);
    });

    it('queues the events of real changes to the endpoints subscribed to them: activation, suspension, revocation', async () => {
      const s = server();
      const endpoint = await createEndpoint(s, admin.token, {
        url: receiver.url,
        event_types: [
          'license.created',
          'license.updated',
          'license.suspended',
          'license.revoked',
          'activation.created',
          'activation.deleted',
        ],
      });
      // Subscribed to nothing that happens here: it gets nothing.
      const other = await createEndpoint(s, admin.token, {
        url: `${receiver.url}/other`,
        event_types: ['payment.refunded'],
      });
      receiver.secrets = [endpoint.secret, other.secret];
      const hardwareId = `hw-hooks-${Date.now()}`;
      const activation = await activateBase(s, owner, hardwareId);
      const licenseId = activation.license_id;
      const deactivated = await s.api({
        method: 'POST',
        path: `/licenses/${licenseId}/deactivate`,
        token: owner.token,
        body: { hardware_id: hardwareId },
      });
      expect(deactivated.statusCode, deactivated.body).toBe(200);
      const suspended = await s.api({
        method: 'PUT',
        path: `/admin/licenses/${licenseId}`,
        token: admin.token,
        body: { status: 'suspended' },
      });
      expect(suspended.statusCode, suspended.body).toBe(200);
      const revoked = await s.api({
        method: 'POST',
        path: `/admin/licenses/${licenseId}/revoke?reason=Chargeback`,
        token: admin.token,
      });
      expect(revoked.statusCode, revoked.body).toBe(200);
      await deliverUntilSettled(s);

      expect(receiver.received.every((request) => request.path === '/' && request.verifiedId !== null)).toBe(
        true,
      );
      const events = firstOfEach(receiver.received).map(
        (request) =>
          JSON.parse(request.body) as {
            type: string;
            data: Record<string, { id?: string; license_id?: string; status?: string }>;
          },
      );
      // Raised at the same instant (the test clock stands still), so their order among themselves is not defined.
      expect(events.map((event) => event.type).sort()).toEqual(
        [
          'license.created',
          'activation.created',
          'activation.deleted',
          'license.updated',
          'license.suspended',
          'license.revoked',
        ].sort(),
      );
      const ofType = (type: string) => events.find((event) => event.type === type)!.data;
      expect(ofType('activation.created').activation).toMatchObject({ license_id: licenseId });
      expect(ofType('license.suspended').license).toMatchObject({ id: licenseId, status: 'suspended' });
      expect(ofType('license.revoked').license).toMatchObject({ id: licenseId, status: 'revoked' });
      expect(new Set(receiver.received.map((request) => request.headers['webhook-id'])).size).toBe(6);
    });

    it('tells of a purchase and its refund: payment.paid with the license it granted, then payment.refunded and license.revoked', async () => {
      const s = server();
      const endpoint = await createEndpoint(s, admin.token, {
        url: receiver.url,
        event_types: ['payment.paid', 'payment.refunded', 'license.revoked'],
      });
      receiver.secrets = [endpoint.secret];
      const buyer = await signIn(s, 'user', 'hooks-buyer');
      await putBillingDetails(s, buyer.token, indianDetails());
      const { payment, license } = await buyInSandbox(s, buyer.token);
      const refunded = await s.api({
        method: 'POST',
        path: `/payments/admin/payments/${payment.id}/refunds`,
        token: admin.token,
        body: { license_action: 'revoke', reason: 'Charged twice' },
      });
      expect(refunded.statusCode, refunded.body).toBe(201);
      await deliverUntilSettled(s);

      expect(receiver.received.every((request) => request.verifiedId !== null)).toBe(true);
      const events = firstOfEach(receiver.received).map(
        (request) =>
          JSON.parse(request.body) as { type: string; data: Record<string, Record<string, unknown>> },
      );
      expect(events.map((event) => event.type).sort()).toEqual([
        'license.revoked',
        'payment.paid',
        'payment.refunded',
      ]);
      const ofType = (type: string) => events.find((event) => event.type === type)!.data;
      expect(ofType('payment.paid').payment).toMatchObject({
        id: payment.id,
        status: 'paid',
        user_id: buyer.id,
        license_id: license.license_id,
      });
      expect(ofType('payment.refunded').payment).toMatchObject({
        id: payment.id,
        refund: { license_action: 'revoke', license_outcome: 'revoked', reason: 'Charged twice' },
      });
      expect(ofType('license.revoked').license).toMatchObject({ id: license.license_id, status: 'revoked' });
    });

    it('keeps the delivery log 30 days: maintenance prunes older finished events with their deliveries and attempts', async () => {
      const s = server();
      const endpoint = await createEndpoint(s, admin.token, {
        url: receiver.url,
        event_types: ['license.created'],
      });
      const now = s.clock.now().getTime();
      const at = (days: number) => new Date(now - days * 86_400_000).toISOString();
      const write = async (name: string, days: number, status: 'succeeded' | 'pending') => {
        const eventId = `msg_prune_${name}_${now}`;
        await s.app.db
          .insertInto('webhook_events')
          .values({ id: eventId, type: 'license.created', payload: '{}', created_at: at(days) })
          .execute();
        await s.app.db
          .insertInto('webhook_deliveries')
          .values({
            id: `${eventId}-d`,
            endpoint_id: endpoint.id,
            event_id: eventId,
            redelivery_of: null,
            status,
            attempts: 1,
            next_attempt_at: new Date(now + 86_400_000).toISOString(),
            claimed_until: null,
            last_status_code: 200,
            last_error: null,
            created_at: at(days),
            completed_at: status === 'pending' ? null : at(days),
          })
          .execute();
        await s.app.db
          .insertInto('webhook_attempts')
          .values({
            id: `${eventId}-a`,
            delivery_id: `${eventId}-d`,
            attempt: 1,
            url: receiver.url,
            request_headers: '{}',
            request_body: '{}',
            response_status: 200,
            response_headers: '{}',
            response_body: '',
            error: null,
            duration_ms: 3,
            started_at: at(days),
            next_attempt_at: null,
          })
          .execute();
        return eventId;
      };
      const old = await write('old', 31, 'succeeded');
      const recent = await write('recent', 29, 'succeeded');
      const oldButPending = await write('pending', 31, 'pending');
      const pruned = await pruneExpiredRows(s.app.db, s.clock, s.config);
      expect(pruned.webhookEvents).toBeGreaterThanOrEqual(1);
      const events = await s.app.db
        .selectFrom('webhook_events')
        .select('id')
        .where('id', 'like', 'msg_prune_%')
        .execute();
      expect(events.map((event) => event.id).sort()).toEqual([oldButPending, recent].sort());
      const attempts = await s.app.db
        .selectFrom('webhook_attempts')
        .select('id')
        .where('id', '=', `${old}-a`)
        .execute();
      expect(attempts).toEqual([]);
    });

    it('counts an endpoint that does not answer within the timeout as failed and retries it', async () => {
      const s = server();
      const endpoint = await createEndpoint(s, admin.token, {
        url: receiver.url,
        event_types: ['license.created'],
      });
      receiver.secrets = [endpoint.secret];
      receiver.script = ['hang'];
      expect((await createLicense(s)).statusCode).toBe(201);
      await s.app.webhookDeliveries.drain();
      const [delivery] = await deliveriesOf(s, admin.token, endpoint.id);
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1, last_status_code: null });
      expect(delivery!.last_error).toBe(`no answer within ${TIMEOUT_MS} ms`);
      expect(delivery!.attempt_log[0]!.duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
      await deliverUntilSettled(s);
      const [after] = await deliveriesOf(s, await adminToken(s), endpoint.id);
      expect(after).toMatchObject({ status: 'succeeded', attempts: 2 });
    });

    it('does not follow a redirect: the 3xx is a failed attempt and the target is never asked', async () => {
      const s = server();
      const endpoint = await createEndpoint(s, admin.token, {
        url: `${receiver.url}/old`,
        event_types: ['license.created'],
      });
      receiver.secrets = [endpoint.secret];
      receiver.script = [{ redirectTo: `${receiver.url}/elsewhere` }];
      expect((await createLicense(s)).statusCode).toBe(201);
      await s.app.webhookDeliveries.drain();
      expect(receiver.received.map((request) => request.path)).toEqual(['/old']);
      const [delivery] = await deliveriesOf(s, admin.token, endpoint.id);
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 302 });
      expect(delivery!.last_error).toBe(`HTTP 302: redirect not followed (to ${receiver.url}/elsewhere)`);
    });

    it('disables an endpoint after repeated failed deliveries and mails every administrator', async () => {
      const s = server();
      const endpoint = await createEndpoint(s, admin.token, {
        url: receiver.url,
        event_types: ['license.created'],
      });
      receiver.secrets = [endpoint.secret];
      receiver.script = Array.from({ length: 2 * MAX_ATTEMPTS }, () => 500);
      // An administrator who reads German is told in German.
      const german = await signIn(s, 'admin', 'german-webhook-admin');
      const preferences = await s.api({
        method: 'PUT',
        path: '/users/me/preferences',
        token: german.token,
        body: { language: 'de' },
      });
      expect(preferences.statusCode, preferences.body).toBe(200);
      const failuresBefore = await deliveryFailures(s);
      expect((await createLicense(s)).statusCode).toBe(201);
      expect((await createLicense(s)).statusCode).toBe(201);
      await deliverUntilSettled(s, 40);
      expect(receiver.received).toHaveLength(2 * MAX_ATTEMPTS);
      expect(await deliveryFailures(s)).toEqual({
        retried: failuresBefore.retried + 2 * (MAX_ATTEMPTS - 1),
        final: failuresBefore.final + 2,
      });

      const token = await adminToken(s);
      const read = await s.api({ path: `/admin/webhooks/${endpoint.id}`, token });
      expect(read.json()).toMatchObject({ enabled: false, consecutive_failures: 2 });
      expect(read.json<{ disabled_reason: string }>().disabled_reason).toMatch(/after 2 failed deliveries/);
      const deliveries = await deliveriesOf(s, token, endpoint.id);
      expect(deliveries.map((delivery) => delivery.status)).toEqual(['failed', 'failed']);

      const mails = (await s.outbox()).filter((mail) =>
        mail.subject.includes(`disabled after repeated failures: ${receiver.url}`),
      );
      expect(mails.map((mail) => mail.to).join(' ')).toContain(admin.email);
      expect(mails[0]!.text).toContain('Failed deliveries in a row: 2');
      const [germanMail] = (await s.outbox()).filter(
        (mail) => mail.to.includes(german.email) && mail.subject.includes(receiver.url),
      );
      expect(germanMail!.subject).toContain(
        `Webhook-Endpunkt nach wiederholten Fehlern deaktiviert: ${receiver.url}`,
      );
      expect(germanMail!.text).toContain('Fehlgeschlagene Zustellungen in Folge: 2');
      const disabledEvents = await s.app.db
        .selectFrom('security_events')
        .select(['severity', 'details'])
        .where('type', '=', 'webhook_endpoint_disabled')
        .where('details', 'like', `%${endpoint.id}%`)
        .execute();
      expect(disabledEvents).toHaveLength(1);
      expect(disabledEvents[0]!.severity).toBe('warning');

      // Disabled: a new event is queued for it and held, and a redelivery is refused until it is enabled.
      expect((await createLicense({ ...s, api: (r) => s.api({ ...r, token }) })).statusCode).toBe(201);
      await s.app.webhookDeliveries.drain();
      expect(receiver.received).toHaveLength(2 * MAX_ATTEMPTS);
      const held = await deliveriesOf(s, token, endpoint.id);
      expect(held.map((delivery) => [delivery.status, delivery.attempts])).toEqual([
        ['pending', 0],
        ['failed', MAX_ATTEMPTS],
        ['failed', MAX_ATTEMPTS],
      ]);
      expectApiError(
        await s.api({
          method: 'POST',
          path: `/admin/webhooks/deliveries/${deliveries[0]!.id}/redeliver`,
          token,
        }),
        409,
        'webhook_endpoint_disabled',
      );
      const enabled = await s.api({
        method: 'PATCH',
        path: `/admin/webhooks/${endpoint.id}`,
        token,
        body: { enabled: true },
      });
      expect(enabled.json()).toMatchObject({ enabled: true, consecutive_failures: 0, disabled_reason: null });
      // Enabled again: what waited is sent.
      await deliverUntilSettled(s);
      expect(receiver.received).toHaveLength(2 * MAX_ATTEMPTS + 1);
      expect(receiver.received.at(-1)).toMatchObject({ verifiedId: held[0]!.event_id, replay: false });
      const [sent] = await deliveriesOf(s, await adminToken(s), endpoint.id);
      expect(sent).toMatchObject({ id: held[0]!.id, status: 'succeeded', attempts: 1 });
    });

    it('signs with both secrets for a day after a rotation, then with the new one only', async () => {
      const s = server();
      const endpoint = await createEndpoint(s, admin.token, {
        url: receiver.url,
        event_types: ['license.created'],
      });
      const rotated = await s.api({
        method: 'POST',
        path: `/admin/webhooks/${endpoint.id}/rotate-secret`,
        token: admin.token,
      });
      expect(rotated.statusCode, rotated.body).toBe(200);
      const newSecret = rotated.json<{ secret: string }>().secret;
      expect(newSecret).not.toBe(endpoint.secret);
      expect(rotated.json<{ previous_secret_expires_at: string }>().previous_secret_expires_at).toBe(
        new Date(s.clock.now().getTime() + 24 * 3_600_000).toISOString(),
      );

      const test = await s.api({
        method: 'POST',
        path: `/admin/webhooks/${endpoint.id}/test`,
        token: admin.token,
      });
      expect(test.statusCode, test.body).toBe(202);
      await s.app.webhookDeliveries.drain();
      const first = receiver.received[0]!;
      expect(String(first.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(verifyWithClock(s, endpoint.secret, first.body, first.headers)).toBe(
        first.headers['webhook-id'],
      );
      expect(verifyWithClock(s, newSecret, first.body, first.headers)).toBe(first.headers['webhook-id']);
      expect(JSON.parse(first.body)).toMatchObject({
        type: 'webhook.test',
        data: { endpoint_id: endpoint.id },
      });

      s.clock.advance(24 * 3_600_000 + 1_000);
      const token = await adminToken(s);
      expect(
        (await s.api({ method: 'POST', path: `/admin/webhooks/${endpoint.id}/test`, token })).statusCode,
      ).toBe(202);
      await s.app.webhookDeliveries.drain();
      const second = receiver.received[1]!;
      expect(String(second.headers['webhook-signature']).split(' ')).toHaveLength(1);
      expect(verifyWithClock(s, endpoint.secret, second.body, second.headers)).toBeNull();
      expect(verifyWithClock(s, newSecret, second.body, second.headers)).toBe(second.headers['webhook-id']);
      // A receiver whose clock is far from the timestamp refuses it (replayed old messages).
      expect(() =>
        new Webhook(newSecret).verify(second.body, {
          'webhook-id': String(second.headers['webhook-id']),
          'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 3600),
          'webhook-signature': String(second.headers['webhook-signature']),
        }),
      ).toThrow();
    });

    it('refuses bad endpoints with 400 and writes nothing', async () => {
      const s = server();
      const post = (body: unknown) =>
        s.api({ method: 'POST', path: '/admin/webhooks', token: admin.token, body });
      expectApiError(
        await post({ url: 'http://example.com/hooks', event_types: ['license.created'] }),
        400,
        'webhook_url_not_https',
      );
      expectApiError(
        await post({ url: 'ftp://example.com/hooks', event_types: ['license.created'] }),
        400,
        'webhook_url_not_https',
      );
      expectApiError(
        await post({ url: 'https://user:pw@example.com/hooks', event_types: ['license.created'] }),
        400,
        'webhook_url_credentials',
      );
      expectApiError(
        await post({ url: 'https://example.com/hooks', event_types: ['license.exploded'] }),
        400,
        'validation_error',
      );
      expectApiError(
        await post({ url: 'https://example.com/hooks', event_types: [] }),
        400,
        'validation_error',
      );
      expectApiError(
        await post({ url: 'not a url', event_types: ['license.created'] }),
        400,
        'validation_error',
      );
      expectApiError(
        await post({ url: 'https://example.com/hooks', event_types: ['license.created'], extra: 1 }),
        400,
        'validation_error',
      );
      const rows = await s.app.db.selectFrom('webhook_endpoints').selectAll().execute();
      expect(rows).toEqual([]);
      expectApiError(
        await s.api({
          method: 'PATCH',
          path: '/admin/webhooks/nope',
          token: admin.token,
          body: { enabled: false },
        }),
        404,
        'webhook_endpoint_not_found',
      );
      expectApiError(
        await s.api({ path: '/admin/webhooks/deliveries/nope', token: admin.token }),
        404,
        'webhook_delivery_not_found',
      );
    });

    it('lists the event types and endpoints, and records every change in the security log', async () => {
      const s = server();
      const types = await s.api({ path: '/admin/webhooks/event-types', token: admin.token });
      expect(types.json<{ data: { type: string }[] }>().data.map((entry) => entry.type)).toContain(
        'payment.refunded',
      );
      const endpoint = await createEndpoint(s, admin.token, {
        url: 'https://hooks.example.com/in',
        event_types: ['payment.paid'],
      });
      const list = await s.api({ path: '/admin/webhooks?search=hooks.example', token: admin.token });
      expect(list.json()).toMatchObject({ total: 1, data: [{ id: endpoint.id, enabled: true }] });
      expect(JSON.stringify(list.json())).not.toContain(endpoint.secret);
      await s.api({
        method: 'PATCH',
        path: `/admin/webhooks/${endpoint.id}`,
        token: admin.token,
        body: { enabled: false },
      });
      expect(
        (await s.api({ method: 'DELETE', path: `/admin/webhooks/${endpoint.id}`, token: admin.token }))
          .statusCode,
      ).toBe(204);
      const events = await s.app.db
        .selectFrom('security_events')
        .select(['type', 'actor_id'])
        .where('type', 'like', 'webhook_%')
        .where('details', 'like', `%${endpoint.id}%`)
        .orderBy('created_at')
        .execute();
      expect(events.map((event) => event.type)).toEqual([
        'webhook_endpoint_created',
        'webhook_endpoint_updated',
        'webhook_endpoint_deleted',
      ]);
      expect(events.every((event) => event.actor_id === admin.id)).toBe(true);
    });
  },
  {
    env: {
      WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
      WEBHOOK_POLL_INTERVAL_MS: '600000',
      WEBHOOK_DISABLE_AFTER_FAILURES: '2',
    },
  },
);
