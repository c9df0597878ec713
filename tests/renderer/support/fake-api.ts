import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_BASE_PATH } from '../../../src/shared/routes';
import { inSeconds, makeJwt } from './jwt';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  apiKey: string | undefined;
  contentType: string | undefined;
  body: string;
}

export type Handler = (
  request: RecordedRequest,
  response: ServerResponse,
) => void | { status?: number; json?: unknown; body?: string; type?: string } | Promise<unknown>;

export const testUser = {
  id: 'user-1',
  email: 'ada@example.com',
  full_name: 'Ada',
  company: null,
  role: 'user',
  status: 'active',
  email_verified: true,
  preferences: {
    theme: 'system',
    language: 'en',
    notifications: { product_updates: true, security_alerts: true, billing: true },
  },
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z',
} as const;

export const problem = (status: number, message: string, code = 'error') => ({
  status,
  json: { detail: message, message, code },
});

/**
 * A real HTTP API on a loopback port with the token rules of the portal's server: access tokens
 * it issued are accepted, each refresh token works once, and spending a used one revokes them all.
 */
export class FakeApi {
  readonly requests: RecordedRequest[] = [];
  readonly refreshTokensSpent: string[] = [];
  reuseDetected = false;
  /** Seconds an issued access token lives. */
  accessLifetime = 900;
  role = 'user';
  private readonly accessTokens = new Set<string>();
  private readonly liveRefresh = new Set<string>();
  private readonly usedRefresh = new Set<string>();
  private readonly routes = new Map<string, Handler>();
  private sequence = 0;
  private server = createServer((request, response) => void this.handle(request, response));
  baseURL = '';

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.baseURL = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${API_BASE_PATH}`;
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Overrides one route: `on('GET /users/me', handler)`. */
  on(route: string, handler: Handler): this {
    this.routes.set(route, handler);
    return this;
  }

  issue(): { access_token: string; refresh_token: string } {
    const access_token = makeJwt({
      exp: inSeconds(this.accessLifetime),
      role: this.role,
      jti: `a${++this.sequence}`,
    });
    const refresh_token = `refresh-token-${++this.sequence}-${'x'.repeat(16)}`;
    this.accessTokens.add(access_token);
    this.liveRefresh.add(refresh_token);
    return { access_token, refresh_token };
  }

  /** Makes the server refuse an access token it issued (as if revoked), while the client still thinks it valid. */
  revoke(accessToken: string) {
    this.accessTokens.delete(accessToken);
  }

  calls(route: string) {
    const [method, path] = route.split(' ');
    return this.requests.filter((request) => request.method === method && request.path === path);
  }

  private async handle(request: IncomingMessage, response: ServerResponse) {
    const origin = request.headers.origin;
    if (origin) {
      response.setHeader('Access-Control-Allow-Origin', origin);
      response.setHeader('Access-Control-Allow-Credentials', 'true');
      response.setHeader('Access-Control-Allow-Headers', 'authorization, content-type, x-api-key, accept');
      response.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, DELETE');
      response.setHeader('Access-Control-Expose-Headers', 'content-type');
    }
    if (request.method === 'OPTIONS') return void response.writeHead(204).end();
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? '/', 'http://localhost');
    const recorded: RecordedRequest = {
      method: request.method ?? 'GET',
      path: url.pathname.slice(API_BASE_PATH.length),
      query: url.searchParams,
      authorization: request.headers.authorization,
      apiKey: request.headers['x-api-key'] as string | undefined,
      contentType: request.headers['content-type'],
      body: Buffer.concat(chunks).toString(),
    };
    this.requests.push(recorded);
    const handler = this.routes.get(`${recorded.method} ${recorded.path}`) ?? this.defaultRoute(recorded);
    const answer = await handler(recorded, response);
    if (response.writableEnded) return;
    const result = (answer ?? {
      status: 404,
      json: { detail: 'Not found', message: 'Not found', code: 'not_found' },
    }) as {
      status?: number;
      json?: unknown;
      body?: string;
      type?: string;
    };
    const body = result.json !== undefined ? JSON.stringify(result.json) : (result.body ?? '');
    response.writeHead(result.status ?? 200, {
      'content-type':
        result.type ?? (result.json !== undefined ? 'application/json; charset=utf-8' : 'text/plain'),
    });
    response.end(body);
  }

  private defaultRoute(request: RecordedRequest): Handler {
    if (
      request.method === 'POST' &&
      (request.path === '/auth/refresh' || request.path === '/auth/refresh-token')
    )
      return () => this.refresh(request);
    if (request.method === 'POST' && request.path === '/auth/logout')
      return () => ({ json: { message: 'Signed out' } });
    // Every other call is a protected read answering who asked.
    return () => {
      const token = request.authorization?.replace(/^Bearer /, '');
      if (!token || !this.accessTokens.has(token))
        return problem(401, 'Not authenticated', 'not_authenticated');
      return request.path === '/users/me' ? { json: testUser } : { json: { ok: true, path: request.path } };
    };
  }

  private refresh(request: RecordedRequest) {
    const token = (JSON.parse(request.body || '{}') as { refresh_token?: string }).refresh_token ?? '';
    this.refreshTokensSpent.push(token);
    if (this.usedRefresh.has(token)) {
      // Reuse of a rotated token: the whole family is revoked, as the real server does.
      this.reuseDetected = true;
      this.liveRefresh.clear();
      return problem(401, 'Refresh token reuse detected', 'refresh_reused');
    }
    if (!this.liveRefresh.has(token)) return problem(401, 'Invalid refresh token', 'invalid_refresh_token');
    this.liveRefresh.delete(token);
    this.usedRefresh.add(token);
    return { json: { ...this.issue(), token_type: 'bearer', user: testUser } };
  }
}
