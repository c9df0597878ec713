import type { AxiosInstance, AxiosStatic, InternalAxiosRequestConfig } from 'axios';
import type { SessionEndReason } from '../../../shared/api/auth';
import { API_TIMEOUT_MS } from '../../../shared/constants';
import { authMessages } from '../../../shared/messages';
import { API_BASE_PATH, portalPaths, publicApiPaths, authApiPaths } from '../../../shared/routes';
import { ApiRequestError, errorBody, isHttpError } from './api-errors';
import { browserLocks, type LockManagerLike } from './locks';
import { readRefreshResponse, type SessionTokens } from './refresh-response';
import { isTokenValid } from './token';
import type { TokenStore } from './token-store';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Send no bearer token and never refresh for this call (the refresh call itself). */
    skipAuth?: boolean;
    /** Send the bearer token when a valid one is stored, but do not refresh to get one (logout). */
    skipRefresh?: boolean;
    /** Set on the one retry after a 401. */
    retried?: boolean;
  }
}

export const DEFAULT_API_KEY = 'dap-web-public';
/** Name of the Web Lock every tab takes before spending the shared refresh token. */
export const REFRESH_LOCK_NAME = 'desktop-ai-assistant:token-refresh';

// 403s that mean the session is gone (cleared, off to /landing), and the pages on which they are expected.
const SESSION_GONE_403 = /invalid token|expired token|not authenticated/i;
const AUTH_PAGES: readonly string[] = [
  portalPaths.login,
  portalPaths.register,
  portalPaths.forgotPassword,
  portalPaths.resetPassword,
  portalPaths.landing,
];

export interface ClientLogger {
  warn(message: string, detail?: string): void;
  error(message: string, detail?: string): void;
}

/** What the client tells the app about the session; set once the store and router exist. */
export interface SessionHandlers {
  onTokensRefreshed?(tokens: SessionTokens): void;
  /**
   * The session could not be kept: tokens are already cleared; the app resets state and goes to
   * /landing. `reason` is why the server ended it, when a refused refresh said so.
   */
  onSessionLost?(reason?: SessionEndReason): void;
  /** The portal path the user is on (on the sign-in pages a session-gone 403 is expected). */
  currentPath?(): string;
}

export interface ApiClientOptions {
  tokens: TokenStore;
  baseURL?: string;
  apiKey?: string;
  locks?: LockManagerLike;
  now?: () => number;
  logger?: ClientLogger;
}

/**
 * The calls the app makes through the one axios instance. axios itself is downloaded on the first
 * call (an anonymous visit of /landing or /login makes none), so this is the instance's request
 * methods, each waiting for the instance before it runs.
 */
export type HttpClient = Pick<
  AxiosInstance,
  'request' | 'get' | 'delete' | 'head' | 'post' | 'put' | 'patch'
>;

export interface ApiClient {
  http: HttpClient;
  /** The single axios instance, created (and its interceptors attached) on first use. */
  instance(): Promise<AxiosInstance>;
  /** One refresh at a time per page (shared by every caller) and per browser (Web Lock). */
  refreshTokens(): Promise<SessionTokens>;
  setSessionHandlers(handlers: SessionHandlers): void;
  /**
   * GET of a public read (no bearer token, nothing to refresh) with the same base path, API key,
   * credentials and timeout as the instance, but without downloading axios: the landing page's
   * plan list is its only call, and axios (about 16 KB gzip) would otherwise be a fifth of the
   * page's JavaScript. A refusal rejects with the server's message, else `fallback`.
   */
  getPublic<T>(path: string, fallback: string): Promise<T>;
}

/**
 * Why the server ended the session, from a refused refresh (its `reason`, see the refresh call's
 * 401 answer); undefined for any other failure.
 */
export function sessionEndReason(error: unknown): SessionEndReason | undefined {
  if (!isHttpError(error)) return undefined;
  const data: unknown = error.response?.data;
  const reason = data && typeof data === 'object' ? (data as { reason?: unknown }).reason : undefined;
  return typeof reason === 'string' ? (reason as SessionEndReason) : undefined;
}

const pathOf = (url: string | undefined) => (url ?? '').split('?')[0] ?? '';
const isPublicCall = (config: InternalAxiosRequestConfig) => publicApiPaths.includes(pathOf(config.url));
const bearerOf = (config: InternalAxiosRequestConfig) =>
  String(config.headers.Authorization ?? '').replace(/^Bearer /, '') || null;

export function createApiClient(options: ApiClientOptions): ApiClient {
  const { tokens } = options;
  const locks = options.locks ?? browserLocks();
  const now = options.now ?? Date.now;
  const logger: ClientLogger = options.logger ?? {
    warn: (message, detail) => console.warn(message, detail),
    error: (message, detail) => console.error(message, detail),
  };
  let handlers: SessionHandlers = {};
  let inFlight: Promise<SessionTokens> | null = null;
  /**
   * The reason the server gave when it refused this session's refresh. A call that was already
   * under way is refused after the tokens are gone and has no refresh to ask: it hands the app the
   * same reason, so the notice says why and not only that the session ended. A new session's
   * first call with a token forgets it.
   */
  let endedBecause: SessionEndReason | undefined;

  let created: Promise<AxiosInstance> | null = null;
  /** Loads axios and builds the one instance; concurrent first calls share this one promise. */
  const instance = () => {
    created ??= import('axios').then(
      ({ default: axios }) => build(axios),
      (error: unknown) => {
        // A failed download (offline) is not remembered: the next call tries again.
        created = null;
        throw error;
      },
    );
    return created;
  };

  /** The one instance: base path, API key, credentials, 30 s timeout and the interceptors, made once. */
  const build = (axios: AxiosStatic): AxiosInstance => {
    const http = axios.create({
      baseURL: options.baseURL ?? API_BASE_PATH,
      timeout: API_TIMEOUT_MS,
      withCredentials: true,
      headers: { 'X-API-Key': options.apiKey ?? DEFAULT_API_KEY, Accept: 'application/json' },
    });

    http.interceptors.request.use(async (config) => {
      if (config.skipAuth || isPublicCall(config) || config.headers.Authorization) return config;
      let token = await tokens.getAccessToken();
      if (!isTokenValid(token, now())) {
        token = null;
        if (!config.skipRefresh && (await tokens.getRefreshToken()))
          token = await refreshTokens().then(
            (result) => result.accessToken,
            () => null,
          );
      }
      if (token) {
        endedBecause = undefined;
        config.headers.Authorization = `Bearer ${token}`;
      }
      return config;
    });

    http.interceptors.response.use(undefined, async (error: unknown) => {
      if (!isHttpError(error) || !error.config) throw error;
      const config = error.config;
      const status = error.response?.status ?? 0;
      const body = errorBody(error);
      const message = body.message || body.detail || '';

      if (status === 401 && !config.skipAuth && !isPublicCall(config) && !config.retried) {
        let token: string;
        try {
          // A refresh that finished while this call was under way already has the answer.
          const current = await tokens.getAccessToken();
          token =
            current && current !== bearerOf(config) && isTokenValid(current, now())
              ? current
              : (await refreshTokens()).accessToken;
        } catch (refreshError) {
          await loseSession(sessionEndReason(refreshError));
          throw error;
        }
        config.retried = true;
        config.headers.Authorization = `Bearer ${token}`;
        return http.request(config);
      }
      if (status === 403) {
        const path = handlers.currentPath?.() ?? globalThis.location?.pathname ?? '';
        if (SESSION_GONE_403.test(message) && !AUTH_PAGES.includes(path)) await loseSession();
        else logger.warn(authMessages.accessForbidden, message || authMessages.noPermission);
      }
      if (status >= 500) logger.error(message || authMessages.unexpectedServerError);
      throw error;
    });

    return http;
  };

  const performRefresh = () =>
    locks.request(REFRESH_LOCK_NAME, async () => {
      // Read under the lock: another tab may have rotated the shared refresh token while we waited,
      // and spending the old one would look like token theft to the server (family revoked).
      const refreshToken = await tokens.getRefreshToken();
      if (!refreshToken) throw new ApiRequestError(authMessages.noRefreshToken);
      const response = await http.post(
        authApiPaths.refresh,
        { refresh_token: refreshToken },
        { skipAuth: true },
      );
      const result = readRefreshResponse(response.data);
      await tokens.save(result);
      return result;
    });

  const refreshTokens = () => {
    inFlight ??= performRefresh()
      .then(
        (result) => {
          handlers.onTokensRefreshed?.(result);
          return result;
        },
        async (error: unknown) => {
          await tokens.clear();
          endedBecause = sessionEndReason(error) ?? endedBecause;
          throw error;
        },
      )
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  };

  const loseSession = async (reason?: SessionEndReason) => {
    await tokens.clear();
    handlers.onSessionLost?.(reason ?? endedBecause);
  };

  const http: HttpClient = {
    request: async (config) => (await instance()).request(config),
    get: async (url, config) => (await instance()).get(url, config),
    delete: async (url, config) => (await instance()).delete(url, config),
    head: async (url, config) => (await instance()).head(url, config),
    post: async (url, data, config) => (await instance()).post(url, data, config),
    put: async (url, data, config) => (await instance()).put(url, data, config),
    patch: async (url, data, config) => (await instance()).patch(url, data, config),
  };

  const getPublic = async <T>(path: string, fallback: string): Promise<T> => {
    let response: Response;
    try {
      response = await fetch(`${options.baseURL ?? API_BASE_PATH}${path}`, {
        headers: { 'X-API-Key': options.apiKey ?? DEFAULT_API_KEY, Accept: 'application/json' },
        credentials: 'include',
        signal: AbortSignal.timeout(API_TIMEOUT_MS),
      });
    } catch (error) {
      throw new ApiRequestError(fallback, { cause: error });
    }
    const body = (await response.json().catch(() => undefined)) as unknown;
    if (response.ok && body !== undefined) return body as T;
    const problem = (body && typeof body === 'object' ? body : {}) as {
      message?: string;
      detail?: string;
      code?: string;
    };
    throw new ApiRequestError(problem.message || problem.detail || fallback, {
      status: response.status,
      ...(problem.code ? { code: problem.code } : {}),
    });
  };

  return {
    http,
    instance,
    refreshTokens,
    setSessionHandlers(next) {
      handlers = next;
    },
    getPublic,
  };
}
