import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bridgeChannels,
  bridgeContract,
  DESKTOP_REFRESH_TOKEN_PLACEHOLDER,
  type DesktopBridge,
} from '../../src/shared/bridge.js';
import { APP_ORIGIN } from '../../src/main/app-origin.js';
import { createAppProtocolHandler } from '../../src/main/app-protocol.js';
import { DESKTOP_API_KEY, PRODUCT_NAME } from '../../src/main/desktop-config.js';
import { createHandlers } from '../../src/main/handlers.js';
import { createBridgeDispatcher } from '../../src/main/ipc.js';
import { type KeytarLike, loadKeytar, openSecretStore } from '../../src/main/keychain.js';
import type { FetchLike } from '../../src/main/licensing-api.js';
import type { SecretStore } from '../../src/main/secret-store.js';
import { createBridge } from '../../src/preload/create-bridge.js';
import { STRONG_PASSWORD, uniqueEmail } from '../support/test-server.js';
import { keyringMissingReason, type KeyringSession, startKeyringSession } from './support/keyring-session.js';
import { updateServiceForTests } from './support/fake-app-updater.js';
import { type LicensingServer, startLicensingServer } from './support/licensing-server.js';

const describeWithKeyring = keyringMissingReason ? describe.skip : describe;
const title = keyringMissingReason ? `[skipped: ${keyringMissingReason}]` : '';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A call as it reached the server: what main forwarded. */
interface Forwarded {
  path: string;
  body: string;
}

describeWithKeyring(
  `desktop refresh token kept in main: real app:// forwarding, real keychain, real API server ${title}`,
  () => {
    let keyring: KeyringSession;
    let server: LicensingServer;
    let dir: string;
    let secrets: SecretStore;
    let keytar: KeytarLike;
    /** Every call main forwarded to the server, in order. */
    const forwarded: Forwarded[] = [];
    /** What the renderer's fetch reaches: the app:// handler main registers. */
    let handle: (request: Request) => Promise<Response>;
    /** Main's IPC dispatcher over the real handlers, as preload's invoke reaches it. */
    let dispatch: ReturnType<typeof createBridgeDispatcher>;
    /** What the renderer's window.desktop reaches: the real bridge over main's dispatcher. */
    let bridge: DesktopBridge;

    const recordingFetch: FetchLike = async (input, init) => {
      const body = init?.body ? new TextDecoder().decode(init.body as ArrayBuffer) : '';
      forwarded.push({ path: new URL(input).pathname, body });
      return fetch(input, init);
    };

    const handlerFor = (overrides: { secrets?: SecretStore; fetch?: FetchLike } = {}) =>
      createAppProtocolHandler({
        rendererDir: dir,
        serverUrl: server.baseUrl,
        apiKey: DESKTOP_API_KEY,
        secrets: overrides.secrets ?? secrets,
        fetch: overrides.fetch ?? recordingFetch,
      });

    beforeAll(async () => {
      keyring = await startKeyringSession();
      server = await startLicensingServer();
      dir = await mkdtemp(join(tmpdir(), 'desktop-keeper-'));
      keytar = await loadKeytar();
      secrets = await openSecretStore({
        service: PRODUCT_NAME,
        fallbackFile: join(dir, 'refresh-token.json'),
      });
      handle = handlerFor();
      dispatch = createBridgeDispatcher(
        createHandlers({
          secrets,
          serverUrl: server.baseUrl,
          apiKey: DESKTOP_API_KEY,
          requestTimeoutMs: 5000,
          licenseStatePath: join(dir, 'license-state.json'),
          leasePublicKeys: server.leaseKeys,
          app: { version: '0.1.0', platform: process.platform },
          updates: updateServiceForTests({
            serverUrl: server.baseUrl,
            licenseStatePath: join(dir, 'license-state.json'),
            settingsPath: join(dir, 'update-settings.json'),
          }).service,
        }),
      );
      bridge = createBridge(
        (channel, ...args) => dispatch(channel, args) as never,
        () => () => undefined,
      );
    });
    afterAll(async () => {
      await server?.close();
      await keyring?.stop();
      await rm(dir, { recursive: true, force: true });
    });

    const kept = () => keytar.getPassword(PRODUCT_NAME, server.baseUrl);

    /** A call from the renderer to app://portal/api/v1…, as the page's fetch makes it. */
    const call = (path: string, body?: unknown, headers: Record<string, string> = {}) =>
      handle(
        new Request(`${APP_ORIGIN}/api/v1${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: typeof body === 'string' ? body : JSON.stringify(body ?? {}),
        }),
      );

    /** Everything the renderer gets of an answer: status, headers and body text. */
    async function seenByRenderer(response: Response) {
      const text = await response.text();
      return { status: response.status, text, headers: JSON.stringify([...response.headers]) };
    }

    async function newUser() {
      const email = uniqueEmail('keeper');
      await server.app.authService.createAccount({
        email,
        password: STRONG_PASSWORD,
        role: 'user',
        verified: true,
      });
      return email;
    }

    /** Signs in through app:// (JSON login); returns what the renderer saw and the token main kept. */
    async function signIn() {
      const answer = await seenByRenderer(
        await call('/auth/login/json', { email: await newUser(), password: STRONG_PASSWORD }),
      );
      expect(answer.status, answer.text).toBe(200);
      const token = await kept();
      expect(token, 'a refresh token in the keychain').toMatch(/^[\w-]{32,}$/);
      return { answer, token: token ?? '' };
    }

    const tokenRow = (token: string) =>
      server.app.db
        .selectFrom('refresh_tokens')
        .innerJoin('refresh_token_families as family', 'family.id', 'refresh_tokens.family_id')
        .select(['refresh_tokens.used_at', 'family.revoked_at', 'family.revoked_reason'])
        .where('token_hash', '=', sha256(token))
        .executeTakeFirstOrThrow();

    it('the bridge has no way to read or write the refresh token: it tells only whether a session exists', async () => {
      expect(Object.keys(bridge).sort()).toEqual([
        'checkForUpdates',
        'checkLicenseStatus',
        'floating',
        'forgetSession',
        'getAppInfo',
        'getHardwareId',
        'getLicenseKey',
        'getMachineTrial',
        'getUpdateChannel',
        'getUpdateState',
        'hasSession',
        'importOfflineLicenseFile',
        'installUpdate',
        'onUpdateStateChange',
        'setLicenseKey',
        'setUpdateChannel',
        'signOutOfflineLicense',
        'sso',
        'startMachineTrial',
        'usage',
        'writeOfflineActivationRequest',
      ]);
      for (const channel of Object.values(bridgeChannels)) expect(channel).not.toMatch(/token/i);
      expect(bridgeContract[bridgeChannels.hasSession].result.safeParse('a-refresh-token').success).toBe(
        false,
      );
      for (const channel of ['desktop:refresh-token:get', 'desktop:refresh-token:set'])
        await expect(dispatch(channel, [])).rejects.toMatchObject({ code: 'unknown_channel' });
    });

    it.each([
      {
        login: 'the form login',
        send: (email: string) =>
          handle(
            new Request(`${APP_ORIGIN}/api/v1/auth/login`, {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: new URLSearchParams({ username: email, password: STRONG_PASSWORD }),
            }),
          ),
      },
      {
        login: 'the JSON login',
        send: (email: string) => call('/auth/login/json', { email, password: STRONG_PASSWORD }),
      },
    ])(
      '$login: the renderer gets the access token and the user, not the refresh token, which the keychain holds',
      async ({ send }) => {
        await bridge.forgetSession();
        expect(await bridge.hasSession()).toBe(false);
        const email = await newUser();
        const answer = await seenByRenderer(await send(email));
        expect(answer.status, answer.text).toBe(200);
        const body = JSON.parse(answer.text) as Record<string, unknown>;
        expect(Object.keys(body).sort()).toEqual([
          'access_token',
          'expires_in',
          'refresh_expires_in',
          'token_type',
          'user',
        ]);
        expect(body).toMatchObject({ token_type: 'bearer', user: { email } });

        const token = await kept();
        expect(token).toMatch(/^[\w-]{32,}$/);
        // The session's live refresh token: the server knows its hash and it is unused.
        expect(await tokenRow(token ?? '')).toMatchObject({ used_at: null, revoked_at: null });
        expect(answer.text).not.toContain(token);
        expect(answer.headers).not.toContain(token);
        expect(await bridge.hasSession()).toBe(true);
      },
    );

    it('refresh: main puts the kept token in whatever the renderer sent, keeps the rotated one, and the renderer sees neither', async () => {
      const first = (await signIn()).token;
      const sentByRenderer = [
        { refresh_token: DESKTOP_REFRESH_TOKEN_PLACEHOLDER },
        { refresh_token: 'a-token-a-page-script-made-up-0001' },
        'not even JSON',
      ];
      let previous = first;
      for (const [index, body] of sentByRenderer.entries()) {
        forwarded.length = 0;
        // The server's second name for the refresh, and a percent-escaped spelling of the first.
        const path = ['/auth/refresh', '/auth/refresh-token', '/auth/%72efresh'][index] ?? '';
        const answer = await seenByRenderer(await call(path, body));
        expect(answer.status, `${path}: ${answer.text}`).toBe(200);
        expect(forwarded).toEqual([
          { path: `/api/v1${path}`, body: JSON.stringify({ refresh_token: previous }) },
        ]);
        const rotated = (await kept()) ?? '';
        expect(rotated).toMatch(/^[\w-]{32,}$/);
        expect(rotated).not.toBe(previous);
        expect(await tokenRow(previous)).toMatchObject({ used_at: expect.any(String), revoked_at: null });
        expect(await tokenRow(rotated)).toMatchObject({ used_at: null, revoked_at: null });
        expect(JSON.parse(answer.text)).toHaveProperty('access_token');
        for (const secret of [previous, rotated]) {
          expect(answer.text).not.toContain(secret);
          expect(answer.headers).not.toContain(secret);
        }
        expect(answer.text).not.toMatch(/refresh_?token/i);
        previous = rotated;
      }
    });

    it('logout: main puts the kept token in, the server ends that session, and the keychain entry is deleted', async () => {
      const { token } = await signIn();
      forwarded.length = 0;
      const answer = await seenByRenderer(
        await call('/auth/logout', { refreshToken: DESKTOP_REFRESH_TOKEN_PLACEHOLDER }),
      );
      expect(answer.status, answer.text).toBe(200);
      expect(forwarded).toEqual([
        { path: '/api/v1/auth/logout', body: JSON.stringify({ refreshToken: token }) },
      ]);
      expect(await tokenRow(token)).toMatchObject({ revoked_reason: 'logout' });
      expect(await kept()).toBeNull();
      expect(await bridge.hasSession()).toBe(false);

      // Nothing left to refresh: main answers at once, without a call the server could only refuse.
      forwarded.length = 0;
      const refresh = await call('/auth/refresh', { refresh_token: DESKTOP_REFRESH_TOKEN_PLACEHOLDER });
      expect(refresh.status).toBe(401);
      expect(await refresh.json()).toEqual({
        detail: 'This desktop app holds no refresh token for the server',
        message: 'Session expired. Please login again.',
        code: 'no_refresh_token',
      });
      expect(forwarded).toEqual([]);
    });

    it('signing out everywhere deletes the kept token', async () => {
      const { answer } = await signIn();
      const accessToken = (JSON.parse(answer.text) as { access_token: string }).access_token;
      const signedOut = await call('/auth/logout-all', {}, { authorization: `Bearer ${accessToken}` });
      expect(signedOut.status).toBe(200);
      expect(await kept()).toBeNull();
    });

    it('a refresh the server refuses (401: the kept token was spent elsewhere) deletes the kept token', async () => {
      const { token } = await signIn();
      // Someone spends the token straight at the server: the family is now marked as stolen.
      const elsewhere = await fetch(`${server.baseUrl}/api/v1/auth/refresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': DESKTOP_API_KEY },
        body: JSON.stringify({ refresh_token: token }),
      });
      expect(elsewhere.status).toBe(200);
      const answer = await seenByRenderer(
        await call('/auth/refresh', { refresh_token: DESKTOP_REFRESH_TOKEN_PLACEHOLDER }),
      );
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.text)).toMatchObject({ code: 'refresh_token_reused' });
      expect(answer.text).not.toContain(token);
      expect(await kept()).toBeNull();
    });

    it('forgetSession (the renderer lost its session) deletes the kept token', async () => {
      await signIn();
      await bridge.forgetSession();
      expect(await kept()).toBeNull();
      expect(await bridge.hasSession()).toBe(false);
    });

    it('an answer that repeats the token main put in (header or error body) reaches the renderer without it', async () => {
      const { token } = await signIn();
      // A server (or proxy) that echoes the request: the renderer must still not learn the token.
      const echoing = handlerFor({
        fetch: async (_input, init) => {
          const sent = new TextDecoder().decode(init?.body as ArrayBuffer);
          return Response.json(
            { detail: `Could not read ${sent}`, message: 'Bad request', code: 'bad_request' },
            { status: 422, headers: { 'x-request-body': sent } },
          );
        },
      });
      const answer = await seenByRenderer(
        await echoing(
          new Request(`${APP_ORIGIN}/api/v1/auth/refresh`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ refresh_token: DESKTOP_REFRESH_TOKEN_PLACEHOLDER }),
          }),
        ),
      );
      expect(answer.status).toBe(422);
      expect(JSON.parse(answer.text)).toMatchObject({ code: 'bad_request', message: 'Bad request' });
      expect(answer.text).not.toContain(token);
      expect(answer.headers).not.toContain(token);
      expect(answer.headers).not.toContain('x-request-body');
      expect(await kept()).toBe(token);
    });

    it('a token storage that fails: a clear 500 JSON error, never the answer with the token in it', async () => {
      const broken: SecretStore = {
        kind: 'os-keychain',
        get: async () => null,
        set: async () => {
          throw new Error('The keychain is locked');
        },
        delete: async () => undefined,
      };
      const response = await handlerFor({ secrets: broken })(
        new Request(`${APP_ORIGIN}/api/v1/auth/login/json`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: await newUser(), password: STRONG_PASSWORD }),
        }),
      );
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({
        detail: 'The desktop app could not read or write its token storage',
        message: 'Could not keep the sign-in on this computer. Restart the app and sign in again.',
        code: 'token_storage_failed',
      });
    });
  },
);
