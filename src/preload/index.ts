import { contextBridge, ipcRenderer } from 'electron';
import { createBridge } from './create-bridge.js';

// The renderer gets `window.desktop` only, never ipcRenderer itself: pages reach only the bridge's channels.
contextBridge.exposeInMainWorld(
  'desktop',
  createBridge((channel, ...args) => ipcRenderer.invoke(channel, ...args)),
);
