import { expect, it } from 'vitest';
import { describeOnEveryDatabase, type TestServer } from '../../support/test-server.js';
import { expectApiError } from '../helpers/auth-helpers.js';
import { activatedMachine } from '../helpers/license-helpers.js';

const PER_MINUTE = 3;

/** Checks of one activated machine sent from any address, the clock stopped 20 s into a minute. */
async function checksFromAddresses(s: TestServer) {
  const { license, hw } = await activatedMachine(s);
  s.clock.freeze();
  s.clock.advance(60_000 - (s.clock.now().getTime() % 60_000) + 20_000);
  return (remoteAddress: string) =>
    s.api({ path: `/licensing/status?license_key=${license.license_key}&hardware_id=${hw}`, remoteAddress });
}

describeOnEveryDatabase(
  `license checks: at most ${PER_MINUTE} a minute per address (LICENSE_CHECK_RATE_LIMIT_PER_MINUTE)`,
  (server) => {
    it('the next check from that address gets 429 with Retry-After until the minute ends; other addresses go on', async () => {
      const s = server();
      const checkFrom = await checksFromAddresses(s);
      // Every check below falls in the same minute.
      for (let count = 0; count < PER_MINUTE; count++) {
        const allowed = await checkFrom('203.0.113.7');
        expect(allowed.statusCode).toBe(200);
        expect(allowed.headers['x-ratelimit-limit']).toBeUndefined();
      }
      const refused = await checkFrom('203.0.113.7');
      expectApiError(refused, 429, 'rate_limited');
      expect(refused.headers['retry-after']).toBe('40');
      expect((await checkFrom('203.0.113.8')).statusCode).toBe(200);

      s.clock.advance(40_000);
      expect((await checkFrom('203.0.113.7')).statusCode).toBe(200);
    });

    it('counts an IPv6 client by its /64, however it writes or varies the rest of its address', async () => {
      const s = server();
      const checkFrom = await checksFromAddresses(s);
      for (const address of ['2001:db8:0:7::1', '2001:0db8:0000:0007:ffff::2', '2001:DB8:0:7:1:2:3:4'])
        expect((await checkFrom(address)).statusCode).toBe(200);
      expectApiError(await checkFrom('2001:db8:0:7::99'), 429, 'rate_limited');
      expect((await checkFrom('2001:db8:0:8::1')).statusCode).toBe(200);
    });
  },
  { env: { LICENSE_CHECK_RATE_LIMIT_PER_MINUTE: String(PER_MINUTE) } },
);
