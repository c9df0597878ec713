import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TokenResponse } from '../../../src/shared/api/auth';
import type { UserProfile } from '../../../src/shared/api/users';
import { REFRESH_TOKEN_TTL_SECONDS } from '../../../src/shared/constants';
import { API_BASE_PATH } from '../../../src/shared/routes';
import { assertApiOperation, contractBreak, recordContractBreak } from './api-contract';
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

export interface Answer {
  status?: number;
  json?: unknown;
  body?: string;
  type?: string;
  /**
   * Why this answer is on purpose not one the real server gives (a proxy's HTML error page, an
   * answer the client must survive): it is sent as is instead of being checked against the API.
   */
  offContract?: string;
}

/** Answers a call; a handler that writes `response` itself (a file, a dropped connection) is not checked. */
export type Handler = (
  request: RecordedRequest,
  response: ServerResponse,
) => void | Answer | Promise<unknown>;

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

/** The client falls back to its own message when an error comes without one (a proxy's, say). */
export const WITHOUT_MESSAGE = 'an error without a message';

/**
 * A real HTTP API on a loopback port with the token rules of the portal's server: access tokens
 * it issued are accepted, each refresh token works once, and spending a used one revokes them all.
 * It answers only calls the real server has, and only with bodies of the real server's schemas
 * (see api-contract.ts): an answer that breaks them is replaced by a 500 and fails the test.
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

  /** Overrides one route of the real API: `on('GET /licenses/L1', handler)`. */
  on(route: string, handler: Handler): this {
    assertApiOperation(route);
    this.routes.set(route, handler);
    return this;
  }

  /** A login or refresh answer as the real server gives it: fresh tokens and the signed-in user. */
  signInAnswer(user: UserProfile = testUser): TokenResponse {
    return {
      ...this.issue(),
      token_type: 'bearer',
      expires_in: this.accessLifetime,
      refresh_expires_in: REFRESH_TOKEN_TTL_SECONDS,
      user,
    };
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
    const result = this.keptToContract(
      recorded,
      (answer ?? problem(404, 'Not found', 'not_found')) as Answer,
    );
    const body = result.json !== undefined ? JSON.stringify(result.json) : (result.body ?? '');
    response.writeHead(result.status ?? 200, {
      'content-type':
        result.type ?? (result.json !== undefined ? 'application/json; charset=utf-8' : 'text/plain'),
    });
    response.end(body);
  }

  /** The answer, or a 500 naming how it differs from what the real server would send. */
  private keptToContract(request: RecordedRequest, answer: Answer): Answer {
    if (answer.offContract) return answer;
    const isJson = answer.json !== undefined || /json/.test(answer.type ?? '');
    const text = answer.json !== undefined ? JSON.stringify(answer.json) : (answer.body ?? '');
    let wire: unknown;
    try {
      wire = isJson ? JSON.parse(text) : undefined;
    } catch {
      wire = undefined;
    }
    const broken = contractBreak(request.method, request.path, answer.status ?? 200, wire);
    if (!broken) return answer;
    recordContractBreak(broken);
    return problem(500, `Fake answer breaks the API contract: ${broken}`, 'fake_answer_breaks_contract');
  }

  private defaultRoute(request: RecordedRequest): Handler {
    if (
      request.method === 'POST' &&
      (request.path === '/auth/refresh' || request.path === '/auth/refresh-token')
    )
      return () => this.refresh(request);
    if (request.method === 'POST' && request.path === '/auth/logout')
      return () => ({ json: { message: 'Signed out' } });
    // Every other call needs a token this server issued; a test registers the answers it needs.
    return () => {
      const token = request.authorization?.replace(/^Bearer /, '');
      if (!token || !this.accessTokens.has(token))
        return problem(401, 'Not authenticated', 'not_authenticated');
      if (request.method === 'GET' && request.path === '/users/me') return { json: testUser };
      return problem(404, `No fake answer for ${request.method} ${request.path}`, 'no_fake_answer');
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
    return { json: this.signInAnswer() };
  }
}
