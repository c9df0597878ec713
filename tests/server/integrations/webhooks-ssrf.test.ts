import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/server/platform/config.js';
import {
  checkEndpointUrl,
  isForbiddenAddress,
  type ResolvedAddress,
} from '../../../src/server/integrations/webhooks/address-guard.js';
import { describeOnEveryDatabase } from '../../support/test-server.js';
import { signIn, signInAgain, type SignedIn } from '../helpers/admin-helpers.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import { createEndpoint, deliveriesOf, type Receiver, startReceiver } from './webhook-helpers.js';

const PUBLIC_ADDRESS = '93.184.216.34';

/**
 * IPv6 addresses that lead to a private IPv4 one: each form of embedding, with the private
 * address it carries. Refused at registration and again at delivery after DNS.
 */
const EMBEDDED_PRIVATE_IPV6 = [
  ['::127.0.0.1', 'IPv4-compatible loopback'],
  ['::10.0.0.1', 'IPv4-compatible private'],
  ['::ffff:0:a00:1', 'IPv4-translated 10.0.0.1'],
  ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
  ['64:ff9b::7f00:1', 'NAT64 127.0.0.1'],
  ['64:ff9b:1::a00:1', 'local-use NAT64 10.0.0.1'],
  ['2002:7f00:1::1', '6to4 of 127.0.0.1'],
  ['2002:a9fe:a9fe::1', '6to4 of 169.254.169.254'],
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo client 127.0.0.1 (inverted)'],
  ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'Teredo client 10.0.0.1 (inverted)'],
  ['2001:0:a00:1:8000:63bf:f7f7:f7f7', 'Teredo server 10.0.0.1'],
] as const;

describe('addresses webhooks may not reach in production', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '[::1]',
    'not-an-address',
    ...EMBEDDED_PRIVATE_IPV6.map(([address]) => address),
    '64:ff9b:1:1::808:808', // local-use NAT64 in a layout whose IPv4 cannot be told
    '2001:db8::1', // documentation
    '3fff::1', // documentation (RFC 9637)
    '5f00::1', // segment routing, not a host
  ])('refuses %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '::8.8.8.8',
    '64:ff9b::808:808', // NAT64 of a public address (a DNS64 resolver answers these)
    '64:ff9b:1::808:808',
    '2002:808:808::1',
    '2001:0:4136:e378:8000:63bf:f7f7:f7f7', // Teredo: public server, public client 8.8.8.8
  ])('allows %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });

  it('allows http to loopback only when private targets are allowed (development)', async () => {
    const resolver = async () => [];
    await expect(
      checkEndpointUrl('http://localhost:3000/hooks', { allowPrivateTargets: true, resolver }),
    ).resolves.toBeInstanceOf(URL);
    await expect(
      checkEndpointUrl('http://[::1]:3000/hooks', { allowPrivateTargets: true, resolver }),
    ).resolves.toBeInstanceOf(URL);
    await expect(
      checkEndpointUrl('http://example.com/hooks', { allowPrivateTargets: true, resolver }),
    ).rejects.toThrow(/https/);
    await expect(
      checkEndpointUrl('http://localhost:3000/hooks', { allowPrivateTargets: false, resolver }),
    ).rejects.toThrow(/https/);
  });
});

describe('WEBHOOK_ALLOW_PRIVATE_TARGETS', () => {
  it('is off in production unless set, on elsewhere, and only true or false', () => {
    expect(loadConfig({}).webhooks.allowPrivateTargets).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development' }).webhooks.allowPrivateTargets).toBe(true);
    expect(
      loadConfig({ NODE_ENV: 'development', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' }).webhooks
        .allowPrivateTargets,
    ).toBe(false);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'yes' })).toThrow(
      /WEBHOOK_ALLOW_PRIVATE_TARGETS/,
    );
    expect(loadConfig({}).webhooks).toMatchObject({
      timeoutMs: 10_000,
      disableAfterFailures: 10,
      disableAfterMs: 5 * 86_400_000,
    });
  });
});

/** DNS as the test says: every other part (HTTP, the database, the worker) is real. */
const dns = new Map<string, string>();
const fakeResolver = async (hostname: string): Promise<ResolvedAddress[]> => {
  const address = dns.get(hostname);
  if (!address) throw new Error(`getaddrinfo ENOTFOUND ${hostname}`);
  return [{ address, family: address.includes(':') ? 6 : 4 }];
};

describeOnEveryDatabase(
  'webhooks in production (private targets refused; fake DNS only)',
  (server) => {
    let admin: SignedIn;
    let receiver: Receiver;

    beforeAll(async () => {
      admin = await signIn(server(), 'admin', 'ssrf-admin');
    });
    beforeEach(async () => {
      receiver = await startReceiver(server);
      admin = await signInAgain(server(), admin);
    });
    afterEach(async () => {
      await receiver.close();
      await server().app.db.deleteFrom('webhook_endpoints').execute();
      dns.clear();
    });

    it.each([
      ['http://hooks.example.com/in', 'webhook_url_not_https'],
      ['http://localhost:8080/in', 'webhook_url_not_https'],
      ['https://localhost/in', 'webhook_url_private'],
      ['https://127.0.0.1/in', 'webhook_url_private'],
      ['https://[::1]/in', 'webhook_url_private'],
      ['https://10.0.0.5/in', 'webhook_url_private'],
      ['https://169.254.169.254/latest/meta-data', 'webhook_url_private'],
      ['https://[::ffff:127.0.0.1]/in', 'webhook_url_private'],
      ['https://[fd00::1]/in', 'webhook_url_private'],
      ['https://internal.example.test/in', 'webhook_url_private'],
      ...EMBEDDED_PRIVATE_IPV6.map(([address]) => [`https://[${address}]/in`, 'webhook_url_private']),
    ])('refuses %s at registration (%s)', async (url, code) => {
      dns.set('internal.example.test', '192.168.10.20');
      const s = server();
      const response = await s.api({
        method: 'POST',
        path: '/admin/webhooks',
        token: admin.token,
        body: { url, event_types: ['license.created'] },
      });
      expectApiError(response, 400, code);
    });

    it('refuses at delivery a name that resolved to a public address at registration and to 127.0.0.1 since (DNS rebinding): nothing reaches the loopback receiver', async () => {
      const s = server();
      const port = new URL(receiver.url).port;
      dns.set('hooks.example.test', PUBLIC_ADDRESS);
      const endpoint = await createEndpoint(s, admin.token, {
        url: `https://hooks.example.test:${port}/in`,
        event_types: ['license.created'],
      });
      dns.set('hooks.example.test', '127.0.0.1');
      const test = await s.api({
        method: 'POST',
        path: `/admin/webhooks/${endpoint.id}/test`,
        token: admin.token,
      });
      expect(test.statusCode, test.body).toBe(202);
      await s.app.webhookDeliveries.drain();

      expect(receiver.received).toEqual([]);
      const [delivery] = await deliveriesOf(s, admin.token, endpoint.id);
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1, last_status_code: null });
      expect(delivery!.last_error).toBe(
        'refused: hooks.example.test resolves to 127.0.0.1, a private, loopback or link-local address',
      );
      expect(delivery!.attempt_log[0]).toMatchObject({ response_status: null, response_body: null });

      // A changed URL is checked again too.
      dns.set('other.example.test', '10.9.8.7');
      expectApiError(
        await s.api({
          method: 'PATCH',
          path: `/admin/webhooks/${endpoint.id}`,
          token: admin.token,
          body: { url: 'https://other.example.test/in' },
        }),
        400,
        'webhook_url_private',
      );
    });

    it.each(EMBEDDED_PRIVATE_IPV6)(
      'refuses at delivery a name that DNS now answers with %s (%s): nothing is sent',
      async (address) => {
        const s = server();
        dns.set('hooks.example.test', PUBLIC_ADDRESS);
        const endpoint = await createEndpoint(s, admin.token, {
          url: 'https://hooks.example.test/in',
          event_types: ['license.created'],
        });
        // Registered with a name too: a name answering with the embedded form is refused as well.
        dns.set('embedded.example.test', address);
        expectApiError(
          await s.api({
            method: 'POST',
            path: '/admin/webhooks',
            token: admin.token,
            body: { url: 'https://embedded.example.test/in', event_types: ['license.created'] },
          }),
          400,
          'webhook_url_private',
        );
        dns.set('hooks.example.test', address);
        const test = await s.api({
          method: 'POST',
          path: `/admin/webhooks/${endpoint.id}/test`,
          token: admin.token,
        });
        expect(test.statusCode, test.body).toBe(202);
        await s.app.webhookDeliveries.drain();
        const [delivery] = await deliveriesOf(s, admin.token, endpoint.id);
        expect(delivery).toMatchObject({ status: 'pending', attempts: 1, last_status_code: null });
        expect(delivery!.last_error).toBe(
          `refused: hooks.example.test resolves to ${address}, a private, loopback or link-local address`,
        );
        expect(receiver.received).toEqual([]);
      },
    );
  },
  {
    env: {
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false',
      WEBHOOK_TIMEOUT_MS: '300',
      WEBHOOK_POLL_INTERVAL_MS: '600000',
    },
    appOverrides: () => ({ webhookResolver: fakeResolver }),
  },
);
