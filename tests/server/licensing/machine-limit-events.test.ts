import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { eventsAbout } from '../helpers/admin-helpers.js';
import {
  activate,
  createPlan,
  deactivate,
  expectActivation,
  giveLicense,
  licenseSuiteOptions,
  machine,
  member,
} from '../helpers/license-helpers.js';

const TYPES = ['license.machine_limit_reached', 'license.deactivation_limit_reached'];

/** An endpoint (disabled, so nothing is sent) subscribed to the fair-use events: they are queued. */
async function fairUseEndpoint(s: TestServer) {
  const now = s.clock.now().toISOString();
  await s.app.db
    .insertInto('webhook_endpoints')
    .values({
      id: randomUUID(),
      url: 'https://example.com/webhooks',
      description: 'fair use test',
      event_types: JSON.stringify(TYPES),
      secret: 'whsec_test',
      previous_secret: null,
      previous_secret_expires_at: null,
      disabled_at: now,
      disabled_reason: 'test',
      consecutive_failures: 0,
      failing_since: null,
      created_by: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

const payloads = async (s: TestServer) =>
  (
    await s.app.db
      .selectFrom('webhook_events')
      .select('payload')
      .where('type', 'in', TYPES)
      .orderBy('created_at')
      .execute()
  ).map((row) => JSON.parse(row.payload) as { type: string; data: Record<string, Record<string, unknown>> });

describeOnEveryDatabase(
  'machine limit events',
  (server) => {
    it('the machine taking the last seat announces license.machine_limit_reached once, for admins too', async () => {
      const s = server();
      await fairUseEndpoint(s);
      const owner = await member(s);
      const license = await giveLicense(
        s,
        owner,
        await createPlan(s, { seats: 2, deactivationsPer30Days: 0 }),
      );
      const [first, second, third] = [machine('a'), machine('b'), machine('c')];
      expectActivation(await activate(s, owner.token, license.license_key, first), 201);
      expect(await payloads(s)).toEqual([]);
      expectActivation(await activate(s, owner.token, license.license_key, second), 201);
      // Activating the same machine again, or a refused third, does not announce it again.
      expectActivation(await activate(s, owner.token, license.license_key, second), 200);
      expect((await activate(s, owner.token, license.license_key, third)).statusCode).toBe(409);

      const [reached, ...others] = await payloads(s);
      expect(others).toEqual([]);
      expect(reached?.type).toBe('license.machine_limit_reached');
      expect(reached?.data.license?.id).toBe(license.id);
      expect(reached?.data.machines).toEqual({ hardware_id: second, limit: 2, used: 2 });
      const [event] = await eventsAbout(s, 'machine_limit_reached', owner.id);
      expect(JSON.parse(event?.details ?? '{}')).toMatchObject({
        license_id: license.id,
        hardware_id: second,
      });

      // A plan allowing no deactivation refuses the customer's, and says so to integrators.
      const refused = await deactivate(s, owner.token, license.id, first);
      expect(refused.statusCode).toBe(409);
      expect(refused.json<{ next_possible_at: string | null }>().next_possible_at).toBeNull();
      const last = (await payloads(s)).at(-1);
      expect(last?.type).toBe('license.deactivation_limit_reached');
      expect(last?.data.machines).toEqual({ hardware_id: first, limit: 0, used: 0, next_possible_at: null });
    });
  },
  licenseSuiteOptions,
);
