import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { clientAddressKey } from '../../../src/server/platform/http/rate-limit.js';

/** What Fastify's request reports once its socket has closed: no address. */
const requestWithoutAddress = { ip: undefined } as unknown as FastifyRequest;
const requestFrom = (ip: string) => ({ ip }) as unknown as FastifyRequest;

describe('the rate limits’ address key', () => {
  it('does not throw for a request whose socket is already gone (the plugin’s own key does)', () => {
    // The plugin's default: an aborted request logged an error line each time.
    expect(() => normalizeIP(requestWithoutAddress.ip)).toThrow(TypeError);
    expect(clientAddressKey(requestWithoutAddress)).toBe('unknown-address');
  });

  it('counts as the plugin does otherwise: the address, one count per IPv6 /64', () => {
    expect(clientAddressKey(requestFrom('203.0.113.7'))).toBe('203.0.113.7');
    expect(clientAddressKey(requestFrom('::ffff:203.0.113.7'))).toBe('203.0.113.7');
    expect(clientAddressKey(requestFrom('2001:db8:1:2:aaaa::1'))).toBe(
      clientAddressKey(requestFrom('2001:db8:1:2:bbbb::9')),
    );
  });
});
