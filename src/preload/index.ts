import { contextBridge, ipcRenderer } from 'electron';
import { createBridge } from './create-bridge.js';

// The renderer gets `window.desktop` only, never ipcRenderer itself: pages reach only the bridge's channels.
contextBridge.exposeInMainWorld(
  'desktop',
  createBridge(
    (channel, ...args) => ipcRenderer.invoke(channel, ...args),
    (event, listener) => {
      // The page's listener gets the message alone, never Electron's event (it carries the sender).
      const forward = (_event: Electron.IpcRendererEvent, payload: unknown) => listener(payload);
      ipcRenderer.on(event, forward);
      return () => {
        ipcRenderer.removeListener(event, forward);
      };
    },
  ),
);
