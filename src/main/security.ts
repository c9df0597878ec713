import { createHash } from 'node:crypto';
import type { Session, WebContents } from 'electron';
import { THEME_BOOT_SCRIPT } from '../shared/theme-boot.js';
import { isAllowedExternalUrl } from './external-links.js';

/**
 * Razorpay Checkout, loaded by /purchase on demand when the server takes real payments: its
 * script and CDN, payment frames, API and telemetry hosts, images (as in src/server/app.ts).
 */
const RAZORPAY = {
  script: 'https://checkout.razorpay.com https://cdn.razorpay.com',
  frame: 'https://api.razorpay.com https://checkout.razorpay.com',
  connect:
    'https://api.razorpay.com https://checkout.razorpay.com https://lumberjack.razorpay.com https://lumberjack-metrics.razorpay.com',
  img: 'https://cdn.razorpay.com',
};

/** index.html's inline script that applies the saved theme before the first paint, allowed by its hash. */
const THEME_BOOT_SCRIPT_SOURCE = `'sha256-${createHash('sha256').update(THEME_BOOT_SCRIPT).digest('base64')}'`;

/** The renderer's Content Security Policy under app:// (the same rules the API server sends). */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  `script-src 'self' ${THEME_BOOT_SCRIPT_SOURCE} ${RAZORPAY.script}`,
  // Inline styles are needed by the UI kit's style props.
  "style-src 'self' 'unsafe-inline'",
  `img-src 'self' data: ${RAZORPAY.img}`,
  "font-src 'self' data:",
  `connect-src 'self' ${RAZORPAY.connect}`,
  "object-src 'none'",
  // Only Razorpay Checkout's frames; the portal itself has none.
  `frame-src ${RAZORPAY.frame}`,
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
