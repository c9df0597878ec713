import type { DesktopBridge } from '../shared/bridge.js';

// What the preload exposes, for the renderer's type check (tsconfig.web.json includes this file).
declare global {
  interface Window {
    desktop?: DesktopBridge;
  }
}

export type { DesktopBridge };
