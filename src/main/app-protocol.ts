import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { API_BASE_PATH } from '../shared/routes.js';
import { APP_HOST } from './app-origin.js';
import type { FetchLike } from './licensing-api.js';
import { type ApiCall, createRefreshTokenKeeper } from './refresh-token-keeper.js';
import type { SignIns } from './sign-ins.js';
import type { SecretStore } from './secret-store.js';
import { CONTENT_SECURITY_POLICY } from './security.js';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

// Headers the proxy must not pass on: hop-by-hop ones, and the renderer's idea of who it is.
const DROPPED_REQUEST_HEADERS = ['host', 'origin', 'referer', 'cookie', 'connection', 'x-api-key'];

export interface AppProtocolOptions {
  /** The renderer build (out/renderer). */
  rendererDir: string;
  /** Origin of the API server that /api/* is forwarded to. */
  serverUrl: string;
  /** The desktop's client key, sent on every forwarded call in place of the renderer's. */
  apiKey: string;
  /** Where main keeps the refresh token (account: the server URL, as for the bridge handlers). */
  secrets: SecretStore;
  /** Told of each sign-in in the app, before its answer reaches the renderer. */
  signIns?: Pick<SignIns, 'signedIn'> & Partial<Pick<SignIns, 'refreshed'>>;
  /** The verifier of a single sign-on main started, added to the page's /auth/sso/complete. */
  ssoVerifier?: () => string | undefined;
  fetch?: FetchLike;
}

const notFound = () =>
  new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });

/**
 * The app:// handler: the renderer build with the SPA fallback of the web server (an unknown
 * path without a file extension gets index.html, so deep links like /licenses/42 work), and
 * /api/* forwarded to the configured server, so the renderer's calls stay same-origin.
 */
export function createAppProtocolHandler(
  options: AppProtocolOptions,
): (request: Request) => Promise<Response> {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const root = normalize(options.rendererDir);
  const refreshTokens = createRefreshTokenKeeper(
    options.secrets,
    options.serverUrl,
    options.signIns,
    options.ssoVerifier,
  );

  async function serveFile(pathname: string): Promise<Response> {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return notFound();
    }
    if (decoded.includes('\0')) return notFound();
    const file = normalize(join(root, decoded));
    // Never outside the build, whatever the path spells (%2e%2e, backslashes…).
    if (file !== root && !file.startsWith(root + sep)) return notFound();
    const info = await stat(file).catch(() => undefined);
    const target = info?.isFile() ? file : extname(decoded) === '' ? join(root, 'index.html') : undefined;
    if (!target) return notFound();
    const body = await readFile(target).catch(() => undefined);
    if (!body) return notFound();
    const type = CONTENT_TYPES[extname(target).toLowerCase()] ?? 'application/octet-stream';
    const headers: Record<string, string> = { 'content-type': type, 'x-content-type-options': 'nosniff' };
    if (type.startsWith('text/html')) {
      headers['content-security-policy'] = CONTENT_SECURITY_POLICY;
      headers['cache-control'] = 'no-cache';
    }
    return new Response(new Uint8Array(body), { status: 200, headers });
  }

  async function send(call: ApiCall): Promise<Response> {
    try {
      const answer = await fetchImpl(call.url, {
        method: call.method,
        headers: call.headers,
        redirect: 'manual',
        ...(call.body ? { body: call.body } : {}),
      });
      const responseHeaders = new Headers(answer.headers);
      // fetch has already decoded the body; the lengths and encodings no longer apply.
      for (const name of ['content-encoding', 'content-length', 'transfer-encoding', 'set-cookie'])
        responseHeaders.delete(name);
      return new Response(answer.body, { status: answer.status, headers: responseHeaders });
    } catch {
      return Response.json(
        {
          detail: `The server ${options.serverUrl} could not be reached`,
          message: 'Cannot reach the server. Check your internet connection and try again.',
          code: 'server_unreachable',
        },
        { status: 502 },
      );
    }
  }

  async function forward(request: Request, url: URL): Promise<Response> {
    const headers = new Headers(request.headers);
    for (const name of DROPPED_REQUEST_HEADERS) headers.delete(name);
    headers.set('x-api-key', options.apiKey);
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    const call: ApiCall = {
      method: request.method,
      url: `${options.serverUrl}${url.pathname}${url.search}`,
      headers,
      body: hasBody ? await request.arrayBuffer() : undefined,
    };
    try {
      return await refreshTokens.forward(call, send);
    } catch {
      // The keychain failed: the renderer gets a clear error, never the answer with the token in it.
      return Response.json(
        {
          detail: 'The desktop app could not read or write its token storage',
          message: 'Could not keep the sign-in on this computer. Restart the app and sign in again.',
          code: 'token_storage_failed',
        },
        { status: 500 },
      );
    }
  }

  return async (request) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return notFound();
    }
    if (url.host !== APP_HOST) return notFound();
    if (url.pathname === API_BASE_PATH || url.pathname.startsWith(`${API_BASE_PATH}/`))
      return forward(request, url);
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response(null, { status: 405 });
    return serveFile(url.pathname);
  };
}
