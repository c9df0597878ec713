import type { DesktopBridge } from '../../../shared/bridge';
import { API_KEY_META_NAME } from '../../../shared/constants';
import { type ApiClient, type ClientLogger, createApiClient, DEFAULT_API_KEY } from './api-client';
import type { CookieJar } from './cookies';
import type { LockManagerLike } from './locks';
import { createPlatform, type Platform } from './platform';
import { createSecureStorage, type SecureStorage } from './secure-storage';
import { createTokenStore, type TokenStore } from './token-store';

/** Everything the endpoints and session thunks talk to; one set per app (tests build their own). */
export interface Services {
  client: ApiClient;
  tokens: TokenStore;
  platform: Platform;
  secure: SecureStorage;
  session: Storage;
  local: Storage;
  now: () => number;
}

export interface ServicesOptions {
  baseURL?: string;
  apiKey?: string;
  bridge?: DesktopBridge | undefined;
  session?: Storage;
  local?: Storage;
  cookies?: CookieJar;
  isHttps?: () => boolean;
  locks?: LockManagerLike;
  logger?: ClientLogger;
  now?: () => number;
}

/**
 * The web client's key as the server that sent the page names it (API_KEYS, see
 * src/server/platform/http/web-portal.ts), so changing API_KEYS needs no new build. The desktop shell
 * loads the page from its own files without it, and its main process sends its own key anyway.
 */
function servedApiKey(): string | undefined {
  return (
    globalThis.document?.querySelector<HTMLMetaElement>(`meta[name="${API_KEY_META_NAME}"]`)?.content ||
    undefined
  );
}

export function createServices(options: ServicesOptions = {}): Services {
  const session = options.session ?? globalThis.sessionStorage;
  const local = options.local ?? globalThis.localStorage;
  const now = options.now ?? (() => Date.now());
  const secure = createSecureStorage({ session, local, cookies: options.cookies, isHttps: options.isHttps });
  const bridge = 'bridge' in options ? options.bridge : globalThis.window?.desktop;
  const platform = createPlatform({ bridge, secure, local });
  const tokens = createTokenStore({ secure, platform, local });
  const client = createApiClient({
    tokens,
    baseURL: options.baseURL,
    apiKey: options.apiKey ?? servedApiKey() ?? DEFAULT_API_KEY,
    locks: options.locks,
    logger: options.logger,
    now,
  });
  return { client, tokens, platform, secure, session, local, now };
}
