/** Cookie access behind an interface so storage code can be tested against any jar. */
export interface CookieJar {
  get(name: string): string | null;
  set(name: string, value: string, options?: CookieOptions): void;
  remove(name: string): void;
  names(): string[];
}

export interface CookieOptions {
  /** Lifetime; without it the cookie ends with the browser session. */
  maxAgeSeconds?: number;
  sameSite?: 'Lax' | 'Strict';
  secure?: boolean;
}

/** A jar over `document.cookie` (or any object with the same string property). */
export function documentCookieJar(doc: { cookie: string } = document): CookieJar {
  const entries = () =>
    doc.cookie
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const at = part.indexOf('=');
        return at < 0 ? [part, ''] : [part.slice(0, at), part.slice(at + 1)];
      });
  return {
    get(name) {
      const entry = entries().find(([key]) => key === name);
      return entry ? decodeURIComponent(entry[1] ?? '') : null;
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
