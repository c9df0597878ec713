import { createServices, type ServicesOptions } from '../../../src/renderer/src/lib/services';
import { createInProcessLocks } from '../../../src/renderer/src/lib/locks';
import { MemoryCookieJar, MemoryStorage } from './memory-storage';

export interface TestTab {
  session: MemoryStorage;
  local: MemoryStorage;
  cookies: MemoryCookieJar;
  logs: { level: 'warn' | 'error'; message: string; detail?: string }[];
}

/** Services of one browser tab: its own session storage; cookies, local storage and locks can be shared. */
export function tabServices(
  baseURL: string,
  shared: Partial<TestTab> & Pick<ServicesOptions, 'locks' | 'bridge' | 'now'> = {},
) {
  const tab: TestTab = {
    session: new MemoryStorage(),
    local: shared.local ?? new MemoryStorage(),
    cookies: shared.cookies ?? new MemoryCookieJar(),
    logs: [],
  };
  const services = createServices({
    baseURL,
    session: tab.session,
    local: tab.local,
    cookies: tab.cookies,
    isHttps: () => false,
    locks: shared.locks ?? createInProcessLocks(),
    bridge: shared.bridge,
    now: shared.now,
    logger: {
      warn: (message, detail) => tab.logs.push({ level: 'warn', message, detail }),
      error: (message, detail) => tab.logs.push({ level: 'error', message, detail }),
    },
  });
  return { services, tab };
}
