import { webcrypto } from 'node:crypto';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// jsdom's own `crypto` has no `subtle`; the portal's secure storage needs Web Crypto, so the
// tests use Node's implementation of the same standard API.
if (!globalThis.crypto?.subtle)
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });

// Mantine reads these browser APIs that jsdom lacks.
if (!window.matchMedia)
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  localStorage.clear();
  for (const name of document.cookie.split(';').map((part) => part.split('=')[0]?.trim()))
    if (name) document.cookie = `${name}=; Path=/; Max-Age=0`;
});
