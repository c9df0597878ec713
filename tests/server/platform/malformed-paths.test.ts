import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { apiErrorSchema } from '../../../src/shared/api/errors.js';
import { updateCheckResponseSchema } from '../../../src/shared/api/distribution.js';
import { describeOnEveryDatabase, type TestServer, WEB_API_KEY } from '../../support/test-server.js';
import { activateBase, signIn } from '../helpers/admin-helpers.js';

const PUBLIC_ORIGIN = 'http://portal.test';
const LONG = 'a'.repeat(5000);

// A web portal build as small as can be: its catch-all file route is what took malformed paths.
const webDir = mkdtempSync(join(tmpdir(), 'portal-paths-web-'));
writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>Portal</title>');

/** Over a real socket: the path goes out exactly as written, double slashes and all. */
async function get(origin: string, path: string, apiKey = true) {
  const response = await fetch(`${origin}${path}`, {
    headers: apiKey ? { 'x-api-key': WEB_API_KEY } : {},
  });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

async function expectRefused(origin: string, path: string, status: number, code: string, apiKey = true) {
  const response = await get(origin, path, apiKey);
  expect(response.status, `${path.slice(0, 80)}: ${response.text.slice(0, 200)}`).toBe(status);
  expect(response.type).toMatch(/^application\/json/);
  const body = apiErrorSchema.parse(JSON.parse(response.text));
  expect(body).toMatchObject({ code, detail: body.message });
}

/** A real update feed URL, as the desktop gets it from its update check. */
async function feedUrl(s: TestServer, origin: string): Promise<string> {
  const owner = await signIn(s, 'user', 'paths-owner');
  const hardwareId = `paths-machine-${Date.now()}`;
  const { license_key } = await activateBase(s, owner, hardwareId);
  const check = await s.api({
    method: 'POST',
    path: '/updates/check',
    body: { license_key, hardware_id: hardwareId, platform: 'linux' },
  });
  expect(check.statusCode, check.body).toBe(200);
  return updateCheckResponseSchema.parse(check.json()).feed_url.replace(PUBLIC_ORIGIN, origin);
}

for (const [label, env] of [
  ['with the web portal built', { WEB_DIR: webDir }],
  ['without a web portal build', {}],
] as const)
  describeOnEveryDatabase(
    `malformed paths ${label}`,
    (server) => {
      let origin: string;
      beforeAll(async () => {
        origin = await server().listen();
      });

      it('answers an empty path segment with 400 malformed_path, before the API key check', async () => {
        await expectRefused(origin, '/api/v1//health', 400, 'malformed_path');
        await expectRefused(origin, '/api/v1//health', 400, 'malformed_path', false);
        await expectRefused(origin, '//api/v1/health', 400, 'malformed_path');
        await expectRefused(origin, '/api/v1/plans//x?y=1', 400, 'malformed_path');
        await expectRefused(origin, '/dashboard//licenses', 400, 'malformed_path');
        // The same paths written properly still work: nothing else is refused.
        expect((await get(origin, '/api/v1/health')).status).toBe(200);
        expect((await get(origin, '/api/v1/health?x=//y')).status).toBe(200);
      });

      it('answers an over-long path segment with 414 uri_too_long, on routes, files and nothing alike', async () => {
        await expectRefused(origin, `/api/v1/licenses/${LONG}`, 414, 'uri_too_long');
        await expectRefused(origin, `/api/v1/admin/webhooks/${LONG}`, 414, 'uri_too_long');
        await expectRefused(origin, `/api/v1/licenses/${'b'.repeat(101)}`, 414, 'uri_too_long');
        await expectRefused(origin, `/${LONG}`, 414, 'uri_too_long');
        await expectRefused(origin, `/assets/${LONG}.js`, 414, 'uri_too_long');
      });

      it("answers the update feed's URL joined with an extra slash with 400, not the 403 of a refused license; the feed itself still answers", async () => {
        const s = server();
        const feed = await feedUrl(s, origin);
        expect(feed.endsWith('/')).toBe(true);
        const path = new URL(feed).pathname;
        await expectRefused(origin, `${path}/latest-linux.yml`, 400, 'malformed_path', false);
        await expectRefused(
          origin,
          `/api/v1/update-feed/${LONG}/latest-linux.yml`,
          414,
          'uri_too_long',
          false,
        );
        // Joined properly, the feed answers for this machine: no release is published yet.
        await expectRefused(origin, `${path}latest-linux.yml`, 404, 'no_update_available', false);
      });
    },
    { env },
  );
