import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP_API_KEY } from '../../src/main/desktop-config.js';
import { createDesktopSso } from '../../src/main/sso-sign-in.js';
import { type LicensingServer, refusedUrl, startLicensingServer } from './support/licensing-server.js';

// The desktop's single sign-on in main against the real API server. The whole round trip (the
// provider, the loopback, the keychain) is e2e/desktop-sso; here, what main says when it cannot start.
describe('desktop single sign-on in main: starting it', () => {
  let server: LicensingServer;
  beforeAll(async () => {
    server = await startLicensingServer();
  }, 120_000);
  afterAll(() => server?.close());

  const sso = (serverUrl: string, opened: string[], openExternal?: () => Promise<void>) =>
    createDesktopSso({
      serverUrl,
      apiKey: DESKTOP_API_KEY,
      timeoutMs: 5000,
      openExternal: openExternal ?? (async (url) => void opened.push(url)),
      returned: () => undefined,
    });

  it('says the server’s words for an address without single sign-on, and opens no browser', async () => {
    const opened: string[] = [];
    const desktop = sso(server.baseUrl, opened);
    const result = await desktop.start('ada@no-sso-here.example');
    expect(result).toEqual({
      started: false,
      message: 'No organization signs in the addresses at no-sso-here.example through single sign-on.',
    });
    expect(opened).toEqual([]);
    expect(desktop.takeVerifier()).toBeUndefined();
    await desktop.close();
  });

  it('says so when the server cannot be reached', async () => {
    const opened: string[] = [];
    const desktop = sso(await refusedUrl(), opened);
    const result = await desktop.start('ada@example.com');
    expect(result.started).toBe(false);
    expect(result.message).toMatch(/^Could not start the sign-in: the license server could not be reached/);
    expect(opened).toEqual([]);
    await desktop.close();
  });
});
