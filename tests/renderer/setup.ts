import { webcrypto } from 'node:crypto';
import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { checkNoContractBreaks } from './support/api-contract';
import { checkNoRenderFallback, watchForRenderFallback } from './support/render-failures';

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

// jsdom has no canvas and logs "not implemented" on every getContext(); without a context the
// dot grid draws nothing, as in a browser that cannot give one.
Object.defineProperty(HTMLCanvasElement.prototype, 'getContext', { value: () => null, configurable: true });

// findBy…/waitFor end as soon as the page gets there; their limit only reports a page that never
// does. Testing Library's 1 s default turns a slow render on a busy machine into a failure.
configure({ asyncUtilTimeout: 10_000 });

beforeEach(() => {
  watchForRenderFallback();
});

// A test passes only if the fake API answered it as the real server could.
afterEach(() => {
  checkNoContractBreaks();
});

afterEach(() => {
  try {
    // Before cleanup() unmounts the page: a fallback still on screen counts too.
    checkNoRenderFallback();
  } finally {
    cleanup();
    // Mantine's toasts live in a store of their own, outside the page cleanup() unmounts: one
    // shown at the end of a test would otherwise be on the next test's screen.
    notifications.clean();
    sessionStorage.clear();
    localStorage.clear();
    for (const name of document.cookie.split(';').map((part) => part.split('=')[0]?.trim()))
      if (name) document.cookie = `${name}=; Path=/; Max-Age=0`;
  }
});
