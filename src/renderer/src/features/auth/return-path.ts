import { STORAGE_PREFIX } from '../../../../shared/constants';
import { portalPaths } from '../../../../shared/routes';

/*
 * Where a visitor was going when they were sent to sign in or to create an account (a plan's
 * checkout from /landing, the download): the `next` query parameter of the sign-in pages, kept in
 * this browser too, so it outlives the e-mail confirmation, whose link opens a fresh page.
 */

/** The sign-in pages' query parameter naming where to go after signing in. */
export const NEXT_PARAM = 'next';

/** The browser's copy of `next` while the address is being confirmed. */
export const RETURN_PATH_STORAGE_KEY = `${STORAGE_PREFIX}_return_path`;

/** A remembered destination older than this is forgotten (a confirmation link lasts far less). */
const REMEMBER_FOR_MS = 7 * 24 * 60 * 60 * 1000;

/** Only a path of this portal: never another site (`//host`, `https:`), never a sign-in page again. */
export function safeReturnPath(value: unknown): string | null {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.includes('\\'))
    return null;
  const path = value.split(/[?#]/)[0];
  const signInPages: readonly string[] = [
    portalPaths.login,
    portalPaths.register,
    portalPaths.forgotPassword,
  ];
  return path && !signInPages.includes(path) ? value : null;
}

/** `page` (a sign-in page) with `next` in its query: `/register?next=%2Fpurchase%3Fplan%3D…`. */
export const withNext = (page: string, next: string | null | undefined): string =>
  next ? `${page}?${new URLSearchParams({ [NEXT_PARAM]: next }).toString()}` : page;

/** The `next` of a sign-in page's query string, when it is a path of this portal. */
export const nextOf = (search: string): string | null =>
  safeReturnPath(new URLSearchParams(search).get(NEXT_PARAM));

const storage = (): Storage | null => {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
};

/** Keeps `path` in this browser until the visitor signs in (see {@link rememberedReturnPath}). */
export function rememberReturnPath(path: string, now: number = Date.now()): void {
  if (!safeReturnPath(path)) return;
  storage()?.setItem(RETURN_PATH_STORAGE_KEY, JSON.stringify({ path, at: now }));
}

/** The path kept by {@link rememberReturnPath}, unless it is too old. */
export function rememberedReturnPath(now: number = Date.now()): string | null {
  try {
    const kept = JSON.parse(storage()?.getItem(RETURN_PATH_STORAGE_KEY) ?? 'null') as {
      path?: unknown;
      at?: unknown;
    } | null;
    if (!kept || typeof kept.at !== 'number' || now - kept.at > REMEMBER_FOR_MS) return null;
    return safeReturnPath(kept.path);
  } catch {
    return null;
  }
}

export function forgetReturnPath(): void {
  storage()?.removeItem(RETURN_PATH_STORAGE_KEY);
}

/**
 * Where a visitor goes once signed in: the page that sent them (an invitation passes
 * `{ returnTo }` as the navigation's state), else the `next` of the query string, else the one
 * remembered in this browser, else `home`.
 */
export function destinationAfterSignIn(
  location: { state: unknown; search: string },
  home: string,
  now: number = Date.now(),
): string {
  const returnTo = safeReturnPath((location.state as { returnTo?: unknown } | null)?.returnTo);
  return returnTo ?? nextOf(location.search) ?? rememberedReturnPath(now) ?? home;
}
