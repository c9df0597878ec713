import { authMessages } from '../shared/messages.js';
import { API_BASE_PATH } from '../shared/routes.js';
import { apiPaths } from '../shared/api-paths.js';
import type { SecretStore } from './secret-store.js';
import type { SignIns } from './sign-ins.js';

/** One renderer call to /api/v1/* as main forwards it to the server. */
export interface ApiCall {
  method: string;
  /** The server URL the call goes to, query included. */
  url: string;
  headers: Headers;
  body: ArrayBuffer | undefined;
}

/** Sends a call to the server; a server that cannot be reached is an answer too (502), never a throw. */
export type SendApiCall = (call: ApiCall) => Promise<Response>;

/** What main does around an auth call so that the renderer never holds the refresh token. */
interface AuthCallRole {
  /**
   * The body field main puts the kept token in (the renderer's body is replaced), and the answer
   * when no token is kept, instead of a call the server could only refuse.
   */
  carries?: { field: 'refresh_token' | 'refreshToken'; withoutSession: () => Response };
  /** Whether a successful answer issues a refresh token (kept here, taken out of the answer). */
  issues?: boolean;
  /** Answer statuses after which the kept token is of no more use and is deleted. */
  endsSession?: (status: number) => boolean;
  /** Whether a successful answer is a sign-in (not a refresh), which main's own listeners hear. */
  signsIn?: boolean;
  /**
   * Whether main adds the verifier of a single sign-on it started in the system browser (the
   * page's body keeps its code; sso-sign-in.ts): the code is worth nothing without it.
   */
  addsSsoVerifier?: boolean;
}

const noSessionToRefresh = () =>
  Response.json(
    {
      detail: 'This desktop app holds no refresh token for the server',
      message: authMessages.sessionExpired,
      code: 'no_refresh_token',
    },
    { status: 401 },
  );

// Nothing to end on the server: signing out succeeds, as the server answers an unknown token.
const nothingToSignOut = () => Response.json({ message: 'Signed out' });

const signIn: AuthCallRole = { issues: true, signsIn: true };
const refresh: AuthCallRole = {
  carries: { field: 'refresh_token', withoutSession: noSessionToRefresh },
  issues: true,
  // 400 or 401: the server refused the token itself (unknown, used, revoked, malformed).
  endsSession: (status) => status === 400 || status === 401,
};
const logout: AuthCallRole = {
  carries: { field: 'refreshToken', withoutSession: nothingToSignOut },
  // Signed out whatever the answer: the renderer forgets its session too, even offline.
  endsSession: () => true,
};
const logoutEverywhere: AuthCallRole = { endsSession: (status) => status >= 200 && status < 300 };

const ROLES = new Map<string, AuthCallRole>([
  [apiPaths.auth.login, signIn],
  [apiPaths.auth.loginJson, signIn],
  [apiPaths.auth.loginSecondFactor, signIn],
  // A single sign-on ends as a password's does: the hand-over code is traded for the session here.
  [apiPaths.auth.ssoComplete, { ...signIn, addsSsoVerifier: true }],
  [apiPaths.auth.refresh, refresh],
  [apiPaths.auth.refreshToken, refresh],
  [apiPaths.auth.logout, logout],
  [apiPaths.auth.logoutAll, logoutEverywhere],
]);

/**
 * The auth call a request is, matched on the path the server routes: as fetch normalises it, with
 * percent-escapes decoded (the server's router decodes them, so /auth/%72efresh is the refresh).
 */
function roleOf(call: ApiCall): AuthCallRole | undefined {
  if (call.method !== 'POST') return undefined;
  let path: string;
  try {
    path = decodeURIComponent(new URL(call.url).pathname);
  } catch {
    return undefined;
  }
  if (!path.startsWith(`${API_BASE_PATH}/`)) return undefined;
  return ROLES.get(path.slice(API_BASE_PATH.length));
}

const TOKEN_FIELDS = ['refresh_token', 'refreshToken'];

/** Removes every refresh-token field, at any depth (answers may wrap their fields in `data` or an array). */
function takeRefreshTokens(value: unknown, found: string[]): void {
  if (Array.isArray(value)) {
    for (const item of value) takeRefreshTokens(item, found);
    return;
  }
  if (!value || typeof value !== 'object') return;
  const fields = value as Record<string, unknown>;
  for (const [name, field] of Object.entries(fields)) {
    if (TOKEN_FIELDS.includes(name)) {
      if (typeof field === 'string' && field.length > 0) found.push(field);
      delete fields[name];
    } else takeRefreshTokens(field, found);
  }
}

/**
 * The answer without its refresh tokens, the tokens, and the access token it issued (a sign-in's);
 * a body that is not JSON carries none.
 */
function splitAnswer(text: string): { text: string; tokens: string[]; accessToken?: string } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { text, tokens: [] };
  }
  const tokens: string[] = [];
  takeRefreshTokens(body, tokens);
  const access = (body as { access_token?: unknown } | null)?.access_token;
  const accessToken = typeof access === 'string' && access.length > 0 ? access : undefined;
  return {
    text: tokens.length > 0 ? JSON.stringify(body) : text,
    tokens,
    ...(accessToken ? { accessToken } : {}),
  };
}

const NULL_BODY_STATUSES = [101, 204, 205, 304];

/** The answer as the renderer gets it: no header and no part of the body spells a token main holds. */
function withoutSecrets(answer: Response, text: string, secrets: string[]): Response {
  const headers = new Headers(answer.headers);
  for (const [name, value] of answer.headers)
    if (secrets.some((secret) => value.includes(secret))) headers.delete(name);
  let body = text;
  for (const secret of secrets) body = body.replaceAll(secret, 'redacted');
  return new Response(NULL_BODY_STATUSES.includes(answer.status) ? null : body, {
    status: answer.status,
    statusText: answer.statusText,
    headers,
  });
}

function withJsonBody(call: ApiCall, body: unknown): ApiCall {
  const headers = new Headers(call.headers);
  headers.set('content-type', 'application/json');
  headers.delete('content-length');
  return { ...call, headers, body: new TextEncoder().encode(JSON.stringify(body)).buffer as ArrayBuffer };
}

/** The call's JSON object body, or an empty object (the server then refuses the call as it would). */
function jsonObjectOf(body: ArrayBuffer | undefined): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(body));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

export interface RefreshTokenKeeper {
  /** Forwards one call with `send`: auth calls go through the keeper, every other call straight on. */
  forward(call: ApiCall, send: SendApiCall): Promise<Response>;
}

/**
 * The desktop keeps the refresh token in main, out of reach of page scripts: an XSS in the
 * renderer must not walk away with a month-long session. Main forwards every app:// API call, so
 * here it takes the refresh token out of sign-in and refresh answers (into `secrets`, under
 * `account`), puts it into the refresh and logout calls, and deletes it when the session ends.
 * The renderer learns only whether a session exists (the bridge's hasSession).
 */
export function createRefreshTokenKeeper(
  secrets: SecretStore,
  account: string,
  /** Told of each sign-in before its answer reaches the renderer (the machine trial's takeover). */
  signIns?: Pick<SignIns, 'signedIn'> & Partial<Pick<SignIns, 'refreshed'>>,
  /** The verifier of the single sign-on that came back to main, once (sso-sign-in.ts). */
  ssoVerifier?: () => string | undefined,
): RefreshTokenKeeper {
  // One auth call at a time: a refresh reads the token the previous one stored, never a spent one
  // (which the server would take for theft and answer by ending the session).
  let queue: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  };

  async function exchange(role: AuthCallRole, call: ApiCall, send: SendApiCall): Promise<Response> {
    const kept = await secrets.get(account);
    let outgoing = call;
    if (role.carries) {
      if (!kept) return role.carries.withoutSession();
      outgoing = withJsonBody(call, { [role.carries.field]: kept });
    }
    const verifier = role.addsSsoVerifier ? ssoVerifier?.() : undefined;
    if (verifier) outgoing = withJsonBody(call, { ...jsonObjectOf(call.body), code_verifier: verifier });
    const answer = await send(outgoing);
    const split = splitAnswer(await answer.text());
    const [issued] = split.tokens;
    if (role.endsSession?.(answer.status)) await secrets.delete(account);
    else if (role.issues && answer.ok && issued) await secrets.set(account, issued);
    if (role.signsIn && answer.ok && split.accessToken) await signIns?.signedIn(split.accessToken);
    else if (role.issues && answer.ok && split.accessToken) signIns?.refreshed?.(split.accessToken);
    const held = [kept, ...split.tokens].filter((secret): secret is string => !!secret);
    return withoutSecrets(answer, split.text, held);
  }

  return {
    forward(call, send) {
      const role = roleOf(call);
      return role ? oneAtATime(() => exchange(role, call, send)) : send(call);
    },
  };
}
