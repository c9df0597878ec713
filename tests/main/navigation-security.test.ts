import { EventEmitter } from 'node:events';
import type { WebContents } from 'electron';
import { describe, expect, it } from 'vitest';
import { APP_ENTRY_URL, createAppUrlCheck, originOf } from '../../src/main/app-origin.js';
import { isAllowedExternalUrl } from '../../src/main/external-links.js';
import { hardenWebContents } from '../../src/main/security.js';

describe('app origin, compared with a URL parser', () => {
  const isAppUrl = createAppUrlCheck();

  it.each([APP_ENTRY_URL, 'app://portal/licenses/42?x=1#top', 'APP://PORTAL/dashboard'])(
    '%s is the app',
    (url) => {
      expect(isAppUrl(url)).toBe(true);
    },
  );

  it.each([
    'app://portal.evil.example/',
    'app://portal@evil.example/',
    'app://user:pass@portal/',
    'app://evil/portal',
    'http://portal/',
    'https://portal/',
    'file:///portal/index.html',
    'javascript:alert(1)',
    'about:blank',
    'not a url',
    '',
  ])('%j is not', (url) => {
    expect(isAppUrl(url)).toBe(false);
  });

  it('the dev server counts only when configured, by exact origin', () => {
    const dev = createAppUrlCheck('http://localhost:5173/');
    expect(dev('http://localhost:5173/licenses')).toBe(true);
    expect(dev('http://localhost:5173.evil.example/')).toBe(false);
    expect(dev('https://localhost:5173/')).toBe(false);
    expect(dev(APP_ENTRY_URL)).toBe(true);
  });

  it('originOf gives scheme://host for custom schemes (where URL#origin is "null")', () => {
    expect(new URL(APP_ENTRY_URL).origin).toBe('null');
    expect(originOf(APP_ENTRY_URL)).toBe('app://portal');
    expect(originOf('https://Example.COM:8443/a')).toBe('https://example.com:8443');
    expect(originOf('mailto:someone@example.com')).toBeNull();
  });
});

describe('external links: https on the allow-list only', () => {
  const allowed = ['portal.example.com', 'razorpay.com'];

  it.each(['https://portal.example.com/terms', 'https://checkout.razorpay.com/v1', 'https://razorpay.com'])(
    '%s opens in the system browser',
    (url) => expect(isAllowedExternalUrl(url, allowed)).toBe(true),
  );

  it.each([
    'http://portal.example.com/terms',
    'https://portal.example.com.evil.example/',
    'https://evilrazorpay.com/',
    'https://user:pw@portal.example.com/',
    'file:///etc/passwd',
    'smb://portal.example.com/share',
    'javascript:alert(1)',
    'https://example.com/',
    'not a url',
  ])('%s does not', (url) => expect(isAllowedExternalUrl(url, allowed)).toBe(false));
});

/** A fake of Electron's WebContents (Electron cannot run here): its events and window-open handler. */
class FakeWebContents extends EventEmitter {
  windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
    this.windowOpenHandler = handler;
  }
  /** Emits a navigation event the way Electron does; true when a listener prevented it. */
  navigate(event: string, url: string): boolean {
    let prevented = false;
    this.emit(event, { url, preventDefault: () => (prevented = true) });
    return prevented;
  }
}

describe('window hardening (fake WebContents)', () => {
  function hardened() {
    const contents = new FakeWebContents();
    const opened: string[] = [];
    const blocked: string[] = [];
    hardenWebContents(contents as unknown as WebContents, {
      isAppUrl: createAppUrlCheck(),
      externalHosts: ['portal.example.com'],
      openExternal: async (url) => {
        opened.push(url);
      },
      log: (message) => blocked.push(message),
    });
    return { contents, opened, blocked };
  }

  it('navigation inside the app goes ahead', () => {
    const { contents, opened } = hardened();
    expect(contents.navigate('will-navigate', 'app://portal/licenses')).toBe(false);
    expect(opened).toEqual([]);
  });

  it('navigation away is stopped; an allowed https link goes to the system browser instead', () => {
    const { contents, opened, blocked } = hardened();
    expect(contents.navigate('will-navigate', 'https://portal.example.com/terms')).toBe(true);
    expect(contents.navigate('will-navigate', 'https://evil.example.com/')).toBe(true);
    expect(contents.navigate('will-redirect', 'http://portal.example.com/')).toBe(true);
    expect(opened).toEqual(['https://portal.example.com/terms']);
    expect(blocked).toEqual([
      'Blocked a link to https://evil.example.com/',
      'Blocked a link to http://portal.example.com/',
    ]);
  });

  it('window.open never opens a window', () => {
    const { contents, opened } = hardened();
    expect(contents.windowOpenHandler?.({ url: 'app://portal/licenses' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler?.({ url: 'https://portal.example.com/help' })).toEqual({
      action: 'deny',
    });
    expect(opened).toEqual(['https://portal.example.com/help']);
  });

  it('no <webview> can be attached', () => {
    const { contents } = hardened();
    expect(contents.navigate('will-attach-webview', 'app://portal/')).toBe(true);
  });
});
