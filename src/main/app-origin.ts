/** The renderer is served from app://portal/, not file://, so routing and CSP work as on the web. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'portal';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/`;

/** scheme://host[:port] of a URL, parsed (Node's URL gives custom schemes an opaque origin), or null. */
export function originOf(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.username || parsed.password || !parsed.host) return null;
  return `${parsed.protocol}//${parsed.host}`.toLowerCase();
}

/**
 * Whether a URL belongs to the app: app://portal, or electron-vite's dev server in development.
 * Compared as parsed origins, so app://portal.evil.example or app://portal@evil do not pass.
 */
export function createAppUrlCheck(devServerUrl?: string): (url: string) => boolean {
  const allowed = new Set([APP_ORIGIN]);
  const devOrigin = devServerUrl ? originOf(devServerUrl) : null;
  if (devOrigin) allowed.add(devOrigin);
  return (url) => {
    const origin = originOf(url);
    return origin !== null && allowed.has(origin);
  };
}
