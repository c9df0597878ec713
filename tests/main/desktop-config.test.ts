import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SERVER_URL,
  DESKTOP_API_KEY,
  DesktopConfigError,
  loadDesktopConfig,
} from '../../src/main/desktop-config.js';
import type { LeaseSigningKeys } from '../../src/shared/api/licenses.js';
import { DEFAULT_API_KEYS } from '../../src/server/platform/config.js';

describe('desktop configuration from the environment', () => {
  it('defaults: the local development server, hourly checks, the desktop API key the server knows', () => {
    const config = loadDesktopConfig({}, { packaged: false });
    expect(config).toEqual({
      serverUrl: DEFAULT_SERVER_URL,
      apiKey: DESKTOP_API_KEY,
      devServerUrl: undefined,
      externalHosts: [],
      licenseCheckIntervalMs: 3_600_000,
      requestTimeoutMs: 15_000,
      leasePublicKeys: undefined,
    });
    expect(DEFAULT_API_KEYS).toContain(`desktop:${DESKTOP_API_KEY}`);
  });

  it('in development DESKTOP_SERVER_URL wins over the built-in address; an https server’s host may open links', () => {
    const config = loadDesktopConfig(
      {
        DESKTOP_SERVER_URL: 'https://Portal.Example.com/',
        DESKTOP_EXTERNAL_HOSTS: 'razorpay.com, Docs.Example.com',
      },
      { packaged: false, builtInServerUrl: 'https://built-in.example.com' },
    );
    expect(config.serverUrl).toBe('https://portal.example.com');
    expect(config.externalHosts).toEqual(['portal.example.com', 'razorpay.com', 'docs.example.com']);
    expect(
      loadDesktopConfig({}, { packaged: true, builtInServerUrl: 'https://built-in.example.com' }).serverUrl,
    ).toBe('https://built-in.example.com');
  });

  it('a packaged app ignores ELECTRON_RENDERER_URL; development uses it', () => {
    const env = { ELECTRON_RENDERER_URL: 'http://localhost:5173' };
    expect(loadDesktopConfig(env, { packaged: true }).devServerUrl).toBeUndefined();
    expect(loadDesktopConfig(env, { packaged: false }).devServerUrl).toBe('http://localhost:5173');
  });

  it('lists every problem at once', () => {
    let error: unknown;
    try {
      loadDesktopConfig(
        {
          DESKTOP_SERVER_URL: 'ftp://portal.example.com',
          DESKTOP_EXTERNAL_HOSTS: 'https://razorpay.com',
          DESKTOP_LICENSE_CHECK_INTERVAL_MINUTES: '0',
          DESKTOP_REQUEST_TIMEOUT_SECONDS: 'soon',
        },
        { packaged: false },
      );
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DesktopConfigError);
    expect((error as DesktopConfigError).problems).toEqual([
      "DESKTOP_SERVER_URL: 'ftp://portal.example.com' must start with https:// or http://",
      "DESKTOP_EXTERNAL_HOSTS: 'https://razorpay.com' is not a host name (no scheme, port or path)",
      "DESKTOP_LICENSE_CHECK_INTERVAL_MINUTES must be a whole number above 0 (got '0')",
      "DESKTOP_REQUEST_TIMEOUT_SECONDS must be a whole number above 0 (got 'soon')",
    ]);
  });

  it.each([
    ['not a url', 'is not a URL'],
    ['https://user:pw@portal.example.com', 'must not contain a user name or password'],
    ['https://portal.example.com/api/v1', 'without a path'],
  ])('DESKTOP_SERVER_URL=%j is refused (%s)', (value, problem) => {
    expect(() => loadDesktopConfig({ DESKTOP_SERVER_URL: value }, { packaged: false })).toThrow(problem);
  });

  it('in development plain http to any host is allowed', () => {
    expect(
      loadDesktopConfig({ DESKTOP_SERVER_URL: 'http://portal.lan:8080' }, { packaged: false }).serverUrl,
    ).toBe('http://portal.lan:8080');
  });
});

describe('a packaged app’s server cannot be changed from outside', () => {
  const builtInServerUrl = 'https://portal.example.com';

  it('ignores DESKTOP_SERVER_URL naming another server, and says so', () => {
    const logged: string[] = [];
    const config = loadDesktopConfig(
      { DESKTOP_SERVER_URL: 'https://fake-portal.example.net' },
      { packaged: true, builtInServerUrl, log: (message) => logged.push(message) },
    );
    expect(config.serverUrl).toBe(builtInServerUrl);
    expect(config.externalHosts).toEqual(['portal.example.com']);
    expect(logged).toEqual([
      'DESKTOP_SERVER_URL (https://fake-portal.example.net) is ignored: a packaged app talks only to its built-in server (https://portal.example.com)',
    ]);
  });

  it('ignores a loopback or malformed DESKTOP_SERVER_URL too, and without a built-in address keeps the default', () => {
    const logged: string[] = [];
    const log = (message: string) => logged.push(message);
    expect(
      loadDesktopConfig(
        { DESKTOP_SERVER_URL: 'http://127.0.0.1:9999' },
        { packaged: true, builtInServerUrl, log },
      ).serverUrl,
    ).toBe(builtInServerUrl);
    expect(
      loadDesktopConfig({ DESKTOP_SERVER_URL: 'not a url' }, { packaged: true, builtInServerUrl, log })
        .serverUrl,
    ).toBe(builtInServerUrl);
    expect(
      loadDesktopConfig({ DESKTOP_SERVER_URL: 'https://fake-portal.example.net' }, { packaged: true, log })
        .serverUrl,
    ).toBe(DEFAULT_SERVER_URL);
    expect(logged).toHaveLength(3);
  });

  it('accepts DESKTOP_SERVER_URL when it is the built-in server (however spelled), without a word', () => {
    const logged: string[] = [];
    const config = loadDesktopConfig(
      { DESKTOP_SERVER_URL: 'https://Portal.Example.com/' },
      { packaged: true, builtInServerUrl, log: (message) => logged.push(message) },
    );
    expect(config.serverUrl).toBe(builtInServerUrl);
    expect(logged).toEqual([]);
  });

  it.each(['http://portal.example.com', 'http://10.0.0.5:8080', 'http://127.0.0.1.example.com'])(
    'refuses a built-in server %j over plain http (not loopback)',
    (url) => {
      expect(() => loadDesktopConfig({}, { packaged: true, builtInServerUrl: url })).toThrow(
        `MAIN_VITE_SERVER_URL: '${new URL(url).origin}' must use https:// (plain http only to 127.0.0.1, localhost or ::1)`,
      );
    },
  );

  it.each([
    'http://127.0.0.1:8080',
    'http://localhost:8080',
    'http://[::1]:8080',
    'https://portal.example.com',
  ])('accepts %j (https, or plain http to this machine)', (url) => {
    expect(loadDesktopConfig({}, { packaged: true, builtInServerUrl: url }).serverUrl).toBe(
      new URL(url).origin,
    );
  });
});

describe('pinned lease keys', () => {
  const keysOf = (kid: string, x = 'A'.repeat(43)): LeaseSigningKeys => ({
    keys: [{ kty: 'OKP', crv: 'Ed25519', x, kid, alg: 'EdDSA', use: 'sig' }],
  });
  const builtIn = keysOf('built-in');

  it('come from the build (MAIN_VITE_LEASE_PUBLIC_KEYS, the served JSON); none built in → undefined', () => {
    expect(
      loadDesktopConfig({}, { packaged: true, builtInLeasePublicKeys: JSON.stringify(builtIn) })
        .leasePublicKeys,
    ).toEqual(builtIn);
    expect(
      loadDesktopConfig({}, { packaged: true, builtInLeasePublicKeys: '' }).leasePublicKeys,
    ).toBeUndefined();
  });

  it('DESKTOP_LEASE_PUBLIC_KEYS replaces them in development only; a packaged app ignores it and says so', () => {
    const override = keysOf('override');
    const env = { DESKTOP_LEASE_PUBLIC_KEYS: JSON.stringify(override) };
    const options = { builtInLeasePublicKeys: JSON.stringify(builtIn) };
    expect(loadDesktopConfig(env, { packaged: false, ...options }).leasePublicKeys).toEqual(override);
    expect(loadDesktopConfig(env, { packaged: false }).leasePublicKeys).toEqual(override);
    const logged: string[] = [];
    const packaged = { packaged: true, log: (message: string) => logged.push(message) };
    expect(loadDesktopConfig(env, { ...packaged, ...options }).leasePublicKeys).toEqual(builtIn);
    expect(loadDesktopConfig(env, packaged).leasePublicKeys).toBeUndefined();
    expect(logged).toEqual([
      'DESKTOP_LEASE_PUBLIC_KEYS is ignored: a packaged app trusts only the lease keys built into it',
      'DESKTOP_LEASE_PUBLIC_KEYS is ignored: a packaged app trusts only the lease keys built into it',
    ]);
  });

  it.each([
    ['<html>502 Bad Gateway</html>', 'is not JSON'],
    ['{"message":"Invalid API key"}', 'is not a list of Ed25519 keys'],
    ['{"keys":[{"kty":"RSA","kid":"k","n":"x","e":"AQAB"}]}', 'is not a list of Ed25519 keys'],
    ['{"keys":[]}', 'lists no key'],
  ])('a bad key list %j stops the app (%s)', (value, problem) => {
    expect(() => loadDesktopConfig({}, { packaged: true, builtInLeasePublicKeys: value })).toThrow(
      `MAIN_VITE_LEASE_PUBLIC_KEYS ${problem}`,
    );
    expect(() => loadDesktopConfig({ DESKTOP_LEASE_PUBLIC_KEYS: value }, { packaged: false })).toThrow(
      `DESKTOP_LEASE_PUBLIC_KEYS ${problem}`,
    );
  });
});
