import type { Session, WebContents } from 'electron';
import { isAllowedExternalUrl } from './external-links.js';

/** The renderer's Content Security Policy under app:// (the same rules the API server sends). */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // Inline styles are needed by the UI kit's style props.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

export interface HardeningOptions {
  isAppUrl: (url: string) => boolean;
  externalHosts: readonly string[];
  openExternal: (url: string) => Promise<void>;
  log?: (message: string) => void;
}

/**
 * Electron security checklist for every web contents: navigation stays inside the app, new
 * windows are never opened (allowed https links go to the system browser), no <webview>.
 */
export function hardenWebContents(contents: WebContents, options: HardeningOptions): void {
  const log = options.log ?? (() => undefined);
  const sendOut = (url: string) => {
    if (isAllowedExternalUrl(url, options.externalHosts)) void options.openExternal(url);
    else log(`Blocked a link to ${url}`);
  };
  const keepInApp = (event: { preventDefault(): void }, url: string) => {
    if (options.isAppUrl(url)) return;
    event.preventDefault();
    sendOut(url);
  };
  contents.on('will-navigate', (event) => keepInApp(event, event.url));
  contents.on('will-redirect', (event) => keepInApp(event, event.url));
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    sendOut(url);
    return { action: 'deny' };
  });
}

/** No page gets a permission (camera, notifications, geolocation, …): the portal needs none. */
export function denyAllPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}
