import { describe, expect, it } from 'vitest';
import { type CookieStoreLike, documentCookieJar } from '../../src/renderer/src/lib/cookies';

/** One tab's `document.cookie`: sees its own writes at once. */
function tabDocument() {
  const values = new Map<string, string>();
  return {
    values,
    get cookie() {
      return [...values].map(([name, value]) => `${name}=${value}`).join('; ');
    },
    set cookie(line: string) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      values.set(pair.slice(0, at), pair.slice(at + 1));
    },
  };
}

/**
 * The browser's shared cookie store, which a tab's write reaches only after `lag` more questions
 * (as a write with `document.cookie` reaches Chromium's network service a moment later).
 */
function laggingStore(tab: ReturnType<typeof tabDocument>, lag: number) {
  const shared = new Map<string, string>();
  let asked = 0;
  const store: CookieStoreLike & { asked: () => number; shared: Map<string, string> } = {
    shared,
    asked: () => asked,
    async get(name) {
      asked += 1;
      if (asked > lag) for (const [key, value] of tab.values) shared.set(key, value);
      const value = shared.get(name);
      return value === undefined ? null : { value };
    },
  };
  return store;
}

describe('the cookie jar over document.cookie and the Cookie Store API', () => {
  it('settles only once the shared store holds what this tab wrote, so the next tab reads the new refresh token', async () => {
    const tab = tabDocument();
    const store = laggingStore(tab, 3);
    store.shared.set('secure_refresh_token', 'spent');
    const jar = documentCookieJar(tab, store);

    jar.set('secure_refresh_token', 'next token');
    expect(jar.get('secure_refresh_token')).toBe('next token');
    expect(await documentCookieJar(tabDocument(), store).read('secure_refresh_token')).toBe('spent');

    await jar.settle('secure_refresh_token');
    expect(store.asked()).toBeGreaterThan(3);
    // Another tab, whose own copy is empty, reads the new value from the shared store.
    expect(await documentCookieJar(tabDocument(), store).read('secure_refresh_token')).toBe('next token');
  });

  it('reads from the shared store rather than this tab’s copy', async () => {
    const tab = tabDocument();
    tab.values.set('secure_refresh_token', 'stale');
    const store = laggingStore(tabDocument(), 0);
    store.shared.set('secure_refresh_token', encodeURIComponent('fresh=value'));
    const jar = documentCookieJar(tab, store);
    expect(jar.get('secure_refresh_token')).toBe('stale');
    expect(await jar.read('secure_refresh_token')).toBe('fresh=value');
    expect(await jar.read('absent')).toBeNull();
  });

  it('without the Cookie Store API reads document.cookie and settles at once', async () => {
    const tab = tabDocument();
    const jar = documentCookieJar(tab, null);
    jar.set('secure_refresh_token', 'a;b');
    await jar.settle('secure_refresh_token');
    expect(await jar.read('secure_refresh_token')).toBe('a;b');
  });
});
