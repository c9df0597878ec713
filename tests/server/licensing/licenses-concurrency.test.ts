import { expect, it } from 'vitest';
import { describeOnEveryDatabase, type TestServer, WEB_API_KEY } from '../../support/test-server.js';
import {
  activationRow,
  activeSeats,
  createPlan,
  featureByKey,
  giveLicense,
  licenseSuiteOptions,
  machine,
  member,
  usageTotals,
} from '../helpers/license-helpers.js';

/** Sends a JSON request over the real socket, answering its status and body. */
function client(base: string, token: string) {
  return async (method: string, path: string, body: unknown) => {
    const response = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        'x-api-key': WEB_API_KEY,
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as { code?: string } };
  };
}

const count = (statuses: number[], status: number) => statuses.filter((item) => item === status).length;

/** Each suite's server listens once, on its own port. */
const addresses = new WeakMap<TestServer['app'], string>();
async function listening(s: TestServer): Promise<string> {
  const known = addresses.get(s.app);
  if (known) return known;
  const address = await s.listen();
  addresses.set(s.app, address);
  return address;
}

describeOnEveryDatabase(
  'licenses under concurrency',
  (server) => {
    it('50 machines activating a 3-seat license at once: exactly 3 get 201, 47 get 409, 3 seats held', async () => {
      const s = server();
      const owner = await member(s);
      const send = client(await listening(s), owner.token);
      const license = await giveLicense(s, owner, 'pro-monthly');
      const machines = Array.from({ length: 50 }, (_, index) => machine(`m${index}`));

      const answers = await Promise.all(
        machines.map((hw) =>
          send('POST', '/licenses/activate', { license_key: license.license_key, hardware_id: hw }),
        ),
      );
      const statuses = answers.map((answer) => answer.status);
      expect(count(statuses, 201)).toBe(3);
      expect(count(statuses, 409)).toBe(47);
      expect(
        answers
          .filter((answer) => answer.status === 409)
          .every((answer) => answer.body.code === 'activation_limit_reached'),
      ).toBe(true);

      const seats = await activeSeats(s, license.id);
      expect(seats).toHaveLength(3);
      const winners = machines.filter((_, index) => statuses[index] === 201);
      expect(seats.map((row) => row.hardware_id).sort()).toEqual(winners.sort());
      const all = await s.app.db
        .selectFrom('activations')
        .select('id')
        .where('license_id', '=', license.id)
        .execute();
      expect(all).toHaveLength(3);
      for (const hw of machines.filter((_, index) => statuses[index] === 409)) {
        expect(await activationRow(s, license.id, hw)).toBeUndefined();
      }
    });

    it('one user’s concurrent Base activations from 10 machines: one Base license, one seat', async () => {
      const s = server();
      const user = await member(s);
      const send = client(await listening(s), user.token);
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          send('POST', '/licenses/activate-base', { hardware_id: machine(`b${index}`) }),
        ),
      );
      const statuses = answers.map((answer) => answer.status);
      expect(count(statuses, 201)).toBe(1);
      expect(count(statuses, 409)).toBe(9);
      const licenses = await s.app.db
        .selectFrom('licenses')
        .select('id')
        .where('user_id', '=', user.id)
        .execute();
      expect(licenses).toHaveLength(1);
      expect(await activeSeats(s, licenses[0]!.id)).toHaveLength(1);
    });

    it('100 concurrent usage posts of 1 under a high limit: all counted, total exactly 100', async () => {
      const s = server();
      const owner = await member(s);
      const send = client(await listening(s), owner.token);
      const license = await giveLicense(s, owner, 'pro-monthly');
      const chat = await featureByKey(s, 'ai_chat');

      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, index) =>
          send('POST', `/licenses/${license.id}/usage`, { featureId: 'ai_chat', usageData: { n: index } }),
        ),
      );
      expect(
        count(
          answers.map((answer) => answer.status),
          200,
        ),
      ).toBe(100);
      expect(await usageTotals(s, license.id, chat.id)).toEqual({ counter: 100, events: 100, eventSum: 100 });
    });

    it('60 concurrent usage posts of 1 against a limit of 30: exactly 30 counted, 30 refused with 409', async () => {
      const s = server();
      const owner = await member(s);
      const send = client(await listening(s), owner.token);
      const plan = await createPlan(s, { seats: 1, features: { ai_chat: 30 } });
      const license = await giveLicense(s, owner, plan);
      const chat = await featureByKey(s, 'ai_chat');

      const answers = await Promise.all(
        Array.from({ length: 60 }, () =>
          send('POST', `/licenses/${license.id}/usage`, { featureId: chat.id }),
        ),
      );
      const statuses = answers.map((answer) => answer.status);
      expect(count(statuses, 200)).toBe(30);
      expect(count(statuses, 409)).toBe(30);
      expect(
        answers
          .filter((answer) => answer.status === 409)
          .every((answer) => answer.body.code === 'usage_limit_reached'),
      ).toBe(true);
      expect(await usageTotals(s, license.id, chat.id)).toEqual({ counter: 30, events: 30, eventSum: 30 });
    });
  },
  licenseSuiteOptions,
);
