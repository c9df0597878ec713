import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CONTENT_SECURITY_POLICY as DESKTOP_CSP } from '../../../src/main/security.js';
import { SESSION_BOOT_SCRIPT } from '../../../src/shared/prerendered-page.js';
import { THEME_BOOT_SCRIPT } from '../../../src/shared/theme-boot.js';
import { describeOnEveryDatabase } from '../../support/test-server.js';

/** Parses a CSP header into directive → sources. */
function directives(header: unknown): Map<string, string[]> {
  expect(typeof header).toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name = '', ...sources]) => [name.toLowerCase(), sources]),
  );
}

/** Razorpay Checkout's hosts (its script, CDN, frames, API and telemetry): what /purchase needs. */
const RAZORPAY = {
  script: ['https://checkout.razorpay.com', 'https://cdn.razorpay.com'],
  frame: ['https://api.razorpay.com', 'https://checkout.razorpay.com'],
  connect: [
    'https://api.razorpay.com',
    'https://checkout.razorpay.com',
    'https://lumberjack.razorpay.com',
    'https://lumberjack-metrics.razorpay.com',
  ],
  img: ['https://cdn.razorpay.com'],
};
const RAZORPAY_HOST = /^https:\/\/[a-z-]+\.razorpay\.com$/;

/** index.html's one inline script (the saved theme before the first paint), allowed by its hash alone. */
const THEME_BOOT = `'sha256-${createHash('sha256').update(THEME_BOOT_SCRIPT).digest('base64')}'`;
/**
 * The public pages rendered at build time run one more, after their content (a stored session
 * gets the start-up screen): only the server sends those pages, so only its policy allows it.
 */
const SESSION_BOOT = `'sha256-${createHash('sha256').update(SESSION_BOOT_SCRIPT).digest('base64')}'`;
const SERVER_INLINE = [THEME_BOOT, SESSION_BOOT];

/** Razorpay's hosts are allowed where Checkout needs them, and nothing else is loosened. */
function expectRazorpayOnly(
  csp: Map<string, string[]>,
  { self, inline }: { self: { frame: boolean }; inline: string[] },
) {
  expect(csp.get('default-src')).toEqual(["'self'"]);
  expect(csp.get('script-src')).toEqual(["'self'", ...inline, ...RAZORPAY.script]);
  expect(csp.get('connect-src')).toEqual(["'self'", ...RAZORPAY.connect]);
  expect(csp.get('img-src')).toEqual(["'self'", 'data:', ...RAZORPAY.img]);
  expect(csp.get('frame-src')).toEqual(self.frame ? ["'self'", ...RAZORPAY.frame] : RAZORPAY.frame);
  expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
  expect(csp.get('font-src')).toEqual(["'self'", 'data:']);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(csp.get('base-uri')).toEqual(["'self'"]);
  expect(csp.get('form-action')).toEqual(["'self'"]);
  // No wildcard, scheme-wide source, inline script or eval anywhere.
  for (const [name, sources] of csp) {
    for (const source of sources) {
      expect(source, `${name} ${source}`).not.toMatch(/\*|^https?:$|'unsafe-eval'|'strict-dynamic'/);
      if (/^https?:\/\//.test(source)) expect(source, name).toMatch(RAZORPAY_HOST);
    }
  }
  expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
}

describeOnEveryDatabase(
  'Content-Security-Policy of a server taking payments through Razorpay',
  (server) => {
    it.each(['/api/v1/health', '/api/docs'])('%s allows Razorpay Checkout and nothing more', async (url) => {
      const response = await server().app.inject({ url });
      expect(response.statusCode).toBeLessThan(400);
      expectRazorpayOnly(directives(response.headers['content-security-policy']), {
        self: { frame: true },
        inline: SERVER_INLINE,
      });
    });

    it('a page of the portal gets the same policy (the SPA fallback and 404 pages alike)', async () => {
      const response = await server().app.inject({ url: '/purchase' });
      expectRazorpayOnly(directives(response.headers['content-security-policy']), {
        self: { frame: true },
        inline: SERVER_INLINE,
      });
    });
  },
  {
    env: { PAYMENT_PROVIDER: 'razorpay', RAZORPAY_KEY_ID: 'rzp_test_csp', RAZORPAY_KEY_SECRET: 'csp-secret' },
  },
);

describeOnEveryDatabase('Content-Security-Policy of a server with the sandbox checkout', (server) => {
  it.each(['/api/v1/health', '/purchase'])('%s allows nothing outside the portal', async (url) => {
    const csp = directives((await server().app.inject({ url })).headers['content-security-policy']);
    expect(csp.get('script-src')).toEqual(["'self'", ...SERVER_INLINE]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('frame-src')).toEqual(["'self'"]);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:']);
    expect([...csp.values()].flat().filter((source) => /^https?:/.test(source))).toEqual([]);
  });
});

describe('Content-Security-Policy of the desktop renderer (Razorpay Checkout)', () => {
  it('allows Razorpay Checkout, keeps the portal itself frame-free, and loosens nothing else', () => {
    expectRazorpayOnly(directives(DESKTOP_CSP), { self: { frame: false }, inline: [THEME_BOOT] });
  });
});

describe('the inline script of index.html', () => {
  it('is in the source with its marker, which the build replaces with exactly the text the policies hash', async () => {
    const source = await readFile(join(import.meta.dirname, '../../../src/renderer/index.html'), 'utf8');
    expect(source).toContain('<!-- theme-boot-script -->');
    expect(source).not.toMatch(/<script>/);
    // The hash is of the very text: any change to it changes the hash both policies send.
    expect(THEME_BOOT).toMatch(/^'sha256-[A-Za-z0-9+/]{43}='$/);
    expect(directives(DESKTOP_CSP).get('script-src')).toContain(THEME_BOOT);
  });
});
