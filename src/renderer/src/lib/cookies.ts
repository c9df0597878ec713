/** Cookie access behind an interface so storage code can be tested against any jar. */
export interface CookieJar {
  get(name: string): string | null;
  set(name: string, value: string, options?: CookieOptions): void;
  remove(name: string): void;
  names(): string[];
  /**
   * The value as every tab sees it: asked of the browser's shared cookie store where the page can
   * ask it, since what another tab has just written may not have reached this tab's copy yet.
   */
  read(name: string): Promise<string | null>;
  /**
   * Resolves once the browser's shared store holds what this tab last wrote for `name`, so the next
   * tab to read it sees the new value. A cookie written with `document.cookie` reaches the store
   * a moment later: a tab that spends the refresh token and lets go of the refresh lock before
   * then would have the next tab present the token it has just spent (the server takes that for theft).
   */
  settle(name: string): Promise<void>;
}

export interface CookieOptions {
  /** Lifetime; without it the cookie ends with the browser session. */
  maxAgeSeconds?: number;
  sameSite?: 'Lax' | 'Strict';
  secure?: boolean;
}

/** The part of the Cookie Store API the jar needs: reading from the browser's shared store. */
export interface CookieStoreLike {
  get(name: string): Promise<{ value?: string } | null>;
}

/** How many times `settle` asks the shared store before giving up (each is a round trip to it). */
const SETTLE_ATTEMPTS = 50;

const browserCookieStore = () => (globalThis as { cookieStore?: CookieStoreLike }).cookieStore;

/**
 * A jar over `document.cookie` (or any object with the same string property), reading and settling
 * through the Cookie Store API when the browser has it (`store`; null: without it), else through
 * `document.cookie`.
 */
export function documentCookieJar(
  doc: { cookie: string } = document,
  store: CookieStoreLike | null = browserCookieStore() ?? null,
): CookieJar {
  const entries = () =>
    doc.cookie
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const at = part.indexOf('=');
        return at < 0 ? [part, ''] : [part.slice(0, at), part.slice(at + 1)];
      });
  const rawValue = (name: string) => entries().find(([key]) => key === name)?.[1] ?? null;
  const stored = async (name: string) => (store ? ((await store.get(name))?.value ?? null) : rawValue(name));
  return {
    get(name) {
      const raw = rawValue(name);
      return raw === null ? null : decodeURIComponent(raw);
    },
    async read(name) {
      const raw = await stored(name);
      return raw === null ? null : decodeURIComponent(raw);
    },
    async settle(name) {
      if (!store) return;
      // This tab reads its own writes at once; the shared store has them when it answers the same.
      const written = rawValue(name);
      for (let attempt = 0; attempt < SETTLE_ATTEMPTS; attempt += 1) {
        if ((await stored(name)) === written) return;
      }
    },
    set(name, value, options = {}) {
      const parts = [
        `${name}=${encodeURIComponent(value)}`,
        'Path=/',
        `SameSite=${options.sameSite ?? 'Lax'}`,
      ];
      if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${options.maxAgeSeconds}`);
      if (options.secure) parts.push('Secure');
      doc.cookie = parts.join('; ');
    },
    remove(name) {
      doc.cookie = `${name}=; Path=/; Max-Age=0; SameSite=Lax`;
    },
    names() {
      return entries().map(([key]) => key ?? '');
    },
  };
}
