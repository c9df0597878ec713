import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { pruneExpiredRows } from '../../../src/server/pruning.js';
import {
  HELD_TOO_LONG_ERROR,
  HELD_TOO_MANY_ERROR,
  MAX_HELD_DELIVERIES_PER_ENDPOINT,
  MAX_HELD_DELIVERY_AGE_DAYS,
} from '../../../src/server/integrations/webhooks/held-deliveries.js';
import type { WebhookEndpointWithSecret } from '../../../src/shared/api/webhooks.js';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { signIn, signInAgain, type SignedIn } from '../helpers/admin-helpers.js';
import {
  createEndpoint,
  deliverUntilSettled,
  deliveriesOf,
  type Receiver,
  startReceiver,
} from './webhook-helpers.js';

const DAY_MS = 86_400_000;

describeOnEveryDatabase(
  'webhook events raised while an endpoint is disabled',
  (server) => {
    let admin: SignedIn;
    let owner: SignedIn;
    let receiver: Receiver;

    beforeAll(async () => {
      admin = await signIn(server(), 'admin', 'held-admin');
      owner = await signIn(server(), 'user', 'held-owner');
    });
    beforeEach(async () => {
      receiver = await startReceiver(server);
      server().clock.freeze();
      admin = await signInAgain(server(), admin);
    });
    afterEach(async () => {
      await receiver.close();
      await server().app.db.deleteFrom('webhook_endpoints').execute();
    });

    /** A fresh token: the tests move the clock days ahead. */
    const token = async (s: TestServer) => {
      admin = await signInAgain(s, admin);
      return admin.token;
    };

    /** A real change that raises `license.created`; answers the license's id. */
    async function createLicense(s: TestServer): Promise<string> {
      const response = await s.api({
        method: 'POST',
        path: '/admin/licenses',
        token: await token(s),
        body: { user_id: owner.id, plan_id: 'pro-yearly' },
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<{ license_id: string }>().license_id;
    }

    async function setEnabled(s: TestServer, endpoint: WebhookEndpointWithSecret, enabled: boolean) {
      const response = await s.api({
        method: 'PATCH',
        path: `/admin/webhooks/${endpoint.id}`,
        token: await token(s),
        body: { enabled },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ enabled });
    }

    async function disabledEndpoint(s: TestServer): Promise<WebhookEndpointWithSecret> {
      const endpoint = await createEndpoint(s, admin.token, {
        url: `${receiver.url}/hooks`,
        event_types: ['license.created'],
      });
      receiver.secrets = [endpoint.secret];
      await setEnabled(s, endpoint, false);
      return endpoint;
    }

    const licenseIdsReceived = () =>
      receiver.received.map((request) => {
        expect(request.verifiedId, 'every delivery verifies').toMatch(/^msg_/);
        return (JSON.parse(request.body) as { data: { license: { id: string } } }).data.license.id;
      });

    it('holds the events of an endpoint disabled by hand and sends them, oldest first, when it is enabled again', async () => {
      const s = server();
      const endpoint = await disabledEndpoint(s);
      const licenses: string[] = [];
      for (let index = 0; index < 3; index++) {
        licenses.push(await createLicense(s));
        s.clock.advance(1_000);
      }
      await s.app.webhookDeliveries.drain();
      expect(receiver.received).toEqual([]);
      const held = await deliveriesOf(s, await token(s), endpoint.id);
      expect(held.map((delivery) => [delivery.status, delivery.attempts])).toEqual([
        ['pending', 0],
        ['pending', 0],
        ['pending', 0],
      ]);

      await setEnabled(s, endpoint, true);
      await deliverUntilSettled(s);
      expect(licenseIdsReceived()).toEqual(licenses);
      const sent = await deliveriesOf(s, await token(s), endpoint.id);
      expect(sent.map((delivery) => delivery.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    });

    it(`holds at most ${MAX_HELD_DELIVERIES_PER_ENDPOINT} deliveries for a disabled endpoint: a newer event gives up the oldest, which stays in the log`, async () => {
      const s = server();
      const endpoint = await disabledEndpoint(s);
      // The bound's worth of held deliveries, written directly: raising a thousand real changes
      // would only make the test slow. They are older than the event raised below.
      const start = s.clock.now().getTime() - DAY_MS;
      const ids = Array.from({ length: MAX_HELD_DELIVERIES_PER_ENDPOINT }, (_, index) => index);
      for (let from = 0; from < ids.length; from += 100) {
        const chunk = ids.slice(from, from + 100);
        const at = (index: number) => new Date(start + index * 1_000).toISOString();
        await s.app.db
          .insertInto('webhook_events')
          .values(
            chunk.map((index) => ({
              id: `msg_held_${index}`,
              type: 'license.created',
              payload: '{}',
              created_at: at(index),
            })),
          )
          .execute();
        await s.app.db
          .insertInto('webhook_deliveries')
          .values(
            chunk.map((index) => ({
              id: `held-${String(index).padStart(4, '0')}`,
              endpoint_id: endpoint.id,
              event_id: `msg_held_${index}`,
              redelivery_of: null,
              status: 'pending' as const,
              attempts: 0,
              next_attempt_at: at(index),
              claimed_until: null,
              last_status_code: null,
              last_error: null,
              created_at: at(index),
              completed_at: null,
            })),
          )
          .execute();
      }

      await createLicense(s);
      const rows = await s.app.db
        .selectFrom('webhook_deliveries')
        .select(['id', 'status', 'last_error', 'completed_at'])
        .where('endpoint_id', '=', endpoint.id)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      expect(rows).toHaveLength(MAX_HELD_DELIVERIES_PER_ENDPOINT + 1);
      expect(rows[0]).toMatchObject({
        id: 'held-0000',
        status: 'failed',
        last_error: HELD_TOO_MANY_ERROR,
        completed_at: s.clock.now().toISOString(),
      });
      expect(rows.slice(1).every((row) => row.status === 'pending')).toBe(true);
      expect(rows.at(-1)!.id).not.toMatch(/^held-/);
      await s.app.webhookDeliveries.drain();
      expect(receiver.received).toEqual([]);
      await s.app.db.deleteFrom('webhook_events').where('id', 'like', 'msg_held_%').execute();
    });

    it(`gives up a delivery held over ${MAX_HELD_DELIVERY_AGE_DAYS} days when the endpoint is enabled, sends the younger ones, and lets an administrator send the old one again`, async () => {
      const s = server();
      const endpoint = await disabledEndpoint(s);
      const old = await createLicense(s);
      s.clock.advance((MAX_HELD_DELIVERY_AGE_DAYS - 1) * DAY_MS);
      const young = await createLicense(s);
      s.clock.advance(DAY_MS + 60_000);

      await setEnabled(s, endpoint, true);
      await deliverUntilSettled(s);
      expect(licenseIdsReceived()).toEqual([young]);
      const [youngDelivery, oldDelivery] = await deliveriesOf(s, await token(s), endpoint.id);
      expect(youngDelivery).toMatchObject({ status: 'succeeded' });
      expect(oldDelivery).toMatchObject({ status: 'failed', attempts: 0, last_error: HELD_TOO_LONG_ERROR });

      const again = await s.api({
        method: 'POST',
        path: `/admin/webhooks/deliveries/${oldDelivery!.id}/redeliver`,
        token: await token(s),
      });
      expect(again.statusCode, again.body).toBe(202);
      await deliverUntilSettled(s);
      expect(licenseIdsReceived()).toEqual([young, old]);
    });

    it(`maintenance gives up deliveries held over ${MAX_HELD_DELIVERY_AGE_DAYS} days while the endpoint stays disabled`, async () => {
      const s = server();
      const endpoint = await disabledEndpoint(s);
      await createLicense(s);
      s.clock.advance(MAX_HELD_DELIVERY_AGE_DAYS * DAY_MS - 60_000);
      await createLicense(s);
      expect((await pruneExpiredRows(s.app.db, s.clock, s.config)).heldWebhookDeliveries).toBe(0);
      s.clock.advance(120_000);
      expect((await pruneExpiredRows(s.app.db, s.clock, s.config)).heldWebhookDeliveries).toBe(1);
      const deliveries = await deliveriesOf(s, await token(s), endpoint.id);
      expect(deliveries.map((delivery) => [delivery.status, delivery.last_error])).toEqual([
        ['pending', null],
        ['failed', HELD_TOO_LONG_ERROR],
      ]);
    });
  },
  { env: { WEBHOOK_POLL_INTERVAL_MS: '600000', WEBHOOK_TIMEOUT_MS: '4000' } },
);
