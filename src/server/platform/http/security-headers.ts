import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { SESSION_BOOT_SCRIPT } from '../../../shared/prerendered-page.js';
import { THEME_BOOT_SCRIPT } from '../../../shared/theme-boot.js';
import type { Config } from '../config.js';

type PaymentProviderName = Config['payments']['provider'];

/**
 * Razorpay Checkout, which /purchase loads on demand when the server takes real payments: its
 * script (and the scripts it pulls from Razorpay's CDN), its payment frames, the API and telemetry
 * hosts those call, and its images. The hosts of Razorpay's own CSP allowlist (razorpay-magento
 * etc/csp_whitelist.xml) plus checkout.razorpay.com for its frame. Nothing else is allowed.
 */
const RAZORPAY_CSP_SOURCES = {
  script: ['https://checkout.razorpay.com', 'https://cdn.razorpay.com'],
  frame: ['https://api.razorpay.com', 'https://checkout.razorpay.com'],
  connect: [
    'https://api.razorpay.com',
    'https://checkout.razorpay.com',
    'https://lumberjack.razorpay.com',
    'https://lumberjack-metrics.razorpay.com',
  ],
  img: ['https://cdn.razorpay.com'],
} as const;

/**
 * index.html's one inline script, which applies the saved theme before the first paint, allowed
 * by its hash (no 'unsafe-inline' for scripts).
 */
export const THEME_BOOT_SCRIPT_SOURCE = `'sha256-${createHash('sha256').update(THEME_BOOT_SCRIPT).digest('base64')}'`;

/**
 * The public pages rendered at build time run one more, right after their content: it shows the
 * session's start-up screen instead when a stored session is to be restored (shared/prerendered-page.ts).
 */
export const SESSION_BOOT_SCRIPT_SOURCE = `'sha256-${createHash('sha256').update(SESSION_BOOT_SCRIPT).digest('base64')}'`;

/**
 * The portal's own bundle and styles, and the theme's and the session's boot scripts by their hashes; inline styles are
 * needed by the UI kit's style props.
 * Razorpay Checkout's hosts are added only when the server takes payments through Razorpay:
 * with the sandbox, checkout.js can never load, so nothing outside the portal is allowed.
 */
function contentSecurityPolicyFor(provider: PaymentProviderName) {
  const razorpay = provider === 'razorpay';
  const withHosts = (own: string[], hosts: readonly string[]) => (razorpay ? [...own, ...hosts] : own);
  return {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: withHosts(
        ["'self'", THEME_BOOT_SCRIPT_SOURCE, SESSION_BOOT_SCRIPT_SOURCE],
        RAZORPAY_CSP_SOURCES.script,
      ),
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: withHosts(["'self'", 'data:'], RAZORPAY_CSP_SOURCES.img),
      fontSrc: ["'self'", 'data:'],
      connectSrc: withHosts(["'self'"], RAZORPAY_CSP_SOURCES.connect),
      frameSrc: withHosts(["'self'"], RAZORPAY_CSP_SOURCES.frame),
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      // Helmet adds this by default; it would break a portal served over plain HTTP on a LAN address.
      upgradeInsecureRequests: null,
    },
  };
}

/**
 * Browser features the portal never uses; a script injected into it cannot use them either. Only
 * names Chromium knows: an unknown one (e.g. `bluetooth`) logs a console error on every page.
 */
const DENIED_FEATURES = [
  'accelerometer',
  'browsing-topics',
  'camera',
  'display-capture',
  'geolocation',
  'gyroscope',
  'hid',
  'magnetometer',
  'microphone',
  'midi',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
];

/**
 * Denies {@link DENIED_FEATURES} and the Payment Request API; Razorpay Checkout's frames may ask
 * for payment (e.g. a saved card or UPI app) when the server takes payments through Razorpay.
 */
function permissionsPolicyFor(provider: PaymentProviderName): string {
  const payment =
    provider === 'razorpay'
      ? `payment=(self ${RAZORPAY_CSP_SOURCES.frame.map((origin) => `"${origin}"`).join(' ')})`
      : 'payment=()';
  return [...DENIED_FEATURES.map((feature) => `${feature}=()`), payment].join(', ');
}

/** Helmet's own value: a year, subdomains included. */
const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

/**
 * The headers helmet would set for these options, worked out once: helmet (through its Fastify
 * plugin) builds its middleware and re-parses the CSP on every request, for headers that never
 * change.
 */
function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let finished = false;
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    finished = true;
  });
  // Helmet's middleware is synchronous; if a version ever is not, this must not pass silently.
  if (!finished) throw new Error('helmet did not set its headers synchronously');
  return headers;
}

/**
 * Helmet's headers plus a Permissions-Policy, all computed once and set on every answer. HSTS is
 * sent only on answers to HTTPS requests (directly or through a trusted proxy): over plain HTTP a
 * browser ignores it, and a server reached over plain HTTP on a LAN address must not be pinned to
 * HTTPS by mistake.
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  { provider }: { provider: PaymentProviderName },
): void {
  const headers = {
    ...helmetHeaders({
      contentSecurityPolicy: contentSecurityPolicyFor(provider),
      strictTransportSecurity: false,
      // One framing rule, never framed: CSP frame-ancestors 'none' for current browsers, and
      // X-Frame-Options saying the same (DENY, not helmet's SAMEORIGIN) for clients without CSP.
      xFrameOptions: { action: 'deny' },
    }),
    'permissions-policy': permissionsPolicyFor(provider),
  };
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    if (request.protocol === 'https') reply.header('strict-transport-security', STRICT_TRANSPORT_SECURITY);
    done();
  });
}
