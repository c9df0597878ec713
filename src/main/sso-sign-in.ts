import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SSO_SIGN_IN_TTL_SECONDS } from '../shared/api/organisation-sso.js';
import { apiPaths } from '../shared/api-paths.js';
import type { SsoStartResult } from '../shared/bridge.js';
import { PRODUCT_NAME } from './desktop-config.js';
import { postToServer, refusalIn, type ServerPostOptions } from './server-post.js';

/*
 * Single sign-on in the desktop app (docs/architecture.md, "Desktop shell"). The provider's pages
 * open in the system browser, not in the app's window (RFC 8252: the user's own browser, its
 * passkeys and password manager; no provider page next to the bridge). The browser holds no cookie
 * of the app's, so the sign-in is bound to main instead: main keeps a PKCE-like verifier and gives
 * the server only its S256 challenge and the port of a one-shot loopback listener. The provider's
 * answer ends, as on the web, with a one-time code, which the server sends to
 * http://127.0.0.1:<port>/sso; main then shows the sign-in page with it, and the page trades it at
 * /auth/sso/complete as on the web, through main's forwarding, which adds the verifier and keeps the
 * refresh token as after a password. A code read off the loopback by another process is useless
 * without the verifier, which never leaves main.
 */

/** The loopback path the server sends the browser back to. */
export const SSO_LOOPBACK_PATH = '/sso';

export interface DesktopSsoDeps extends ServerPostOptions {
  /** Opens the provider's sign-in in the system browser (Electron's shell.openExternal). */
  openExternal(url: string): Promise<void>;
  /**
   * The sign-in came back: show the app's sign-in page with `fragment` (`sso_code=…` or
   * `sso_error=…&message=…`), which it completes as on the web, and bring the window forward.
   */
  returned(fragment: string): void;
  /** How long the listener waits for the browser (the server's sign-in lives as long). */
  waitMs?: number;
  log?: (message: string) => void;
}

export interface DesktopSso {
  /** Starts a sign-in for `email` in the system browser, in place of one under way. */
  start(email: string): Promise<SsoStartResult>;
  /**
   * The verifier of the sign-in that came back, once, for /auth/sso/complete (the app:// forwarding
   * adds it to the page's call); undefined when none came back.
   */
  takeVerifier(): string | undefined;
  /** Stops listening (the app quits). */
  close(): Promise<void>;
}

const PAGE_STYLE =
  'font:16px system-ui,sans-serif;max-width:32rem;margin:15vh auto;padding:0 1rem;color:#1a1b1e;text-align:center';

/** The page the browser shows once the app has the sign-in: nothing in it but words. */
const donePage = (failed: boolean) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
  `<title>${PRODUCT_NAME}</title></head><body style="${PAGE_STYLE}"><h1 style="font-size:1.3rem">` +
  (failed ? 'The sign-in did not finish' : 'You can go back to the app') +
  `</h1><p>${PRODUCT_NAME} ${failed ? 'says what went wrong' : 'is signing you in'}. You can close this tab.</p></body></html>`;

const base64url = (bytes: Buffer) => bytes.toString('base64url');

export function createDesktopSso(deps: DesktopSsoDeps): DesktopSso {
  const log = deps.log ?? (() => undefined);
  const waitMs = deps.waitMs ?? SSO_SIGN_IN_TTL_SECONDS * 1000;
  let listening: { server: Server; timer: NodeJS.Timeout } | undefined;
  let verifier: string | undefined;
  /** The verifier of the sign-in that came back, kept until the page trades its code. */
  let returnedVerifier: string | undefined;

  async function stopListening() {
    const current = listening;
    listening = undefined;
    if (!current) return;
    clearTimeout(current.timer);
    current.server.closeAllConnections();
    await new Promise<void>((resolve) => current.server.close(() => resolve()));
  }

  /** A one-shot listener on a free loopback port: the first GET /sso with a code or an error ends it. */
  async function listen(forVerifier: string): Promise<number> {
    const server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const code = url.searchParams.get('sso_code');
      const error = url.searchParams.get('sso_error');
      if (request.method !== 'GET' || url.pathname !== SSO_LOOPBACK_PATH || (!code && !error)) {
        response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
        return;
      }
      response
        .writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
          'referrer-policy': 'no-referrer',
        })
        .end(donePage(!code));
      // Only the sign-in this listener was opened for: a later one has a listener of its own.
      if (verifier !== forVerifier) return;
      verifier = undefined;
      returnedVerifier = code ? forVerifier : undefined;
      void stopListening();
      const said = new URLSearchParams(
        code ? { sso_code: code } : { sso_error: error!, message: url.searchParams.get('message') ?? '' },
      );
      deps.returned(said.toString());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const timer = setTimeout(() => {
      if (verifier === forVerifier) verifier = undefined;
      void stopListening();
    }, waitMs);
    timer.unref();
    listening = { server, timer };
    return (server.address() as AddressInfo).port;
  }

  return {
    async start(email) {
      await stopListening();
      returnedVerifier = undefined;
      const ownVerifier = base64url(randomBytes(32));
      verifier = ownVerifier;
      const port = await listen(ownVerifier);
      const challenge = base64url(createHash('sha256').update(ownVerifier).digest());
      const answer = await postToServer(deps, apiPaths.auth.ssoStart, {
        email,
        desktop: { code_challenge: challenge, port },
      });
      const url = answer.reached && answer.ok ? (answer.body as { authorization_url?: unknown }) : undefined;
      if (typeof url?.authorization_url !== 'string') {
        verifier = undefined;
        await stopListening();
        if (!answer.reached)
          return { started: false, message: `Could not start the sign-in: ${answer.reason}.` };
        return {
          started: false,
          message: refusalIn(answer.body)?.message ?? 'The server did not start the sign-in.',
        };
      }
      try {
        await deps.openExternal(url.authorization_url);
      } catch (error) {
        log(`Could not open the browser: ${error instanceof Error ? error.message : String(error)}`);
        verifier = undefined;
        await stopListening();
        return { started: false, message: 'Could not open your web browser for the sign-in.' };
      }
      return {
        started: true,
        message: 'Continue in your web browser: sign in there, then come back to this window.',
      };
    },
    takeVerifier() {
      const taken = returnedVerifier;
      returnedVerifier = undefined;
      return taken;
    },
    close: stopListening,
  };
}
