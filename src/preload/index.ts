import { contextBridge, ipcRenderer } from 'electron';
import { createBridge } from './create-bridge.js';

// The renderer gets `window.desktop` only: never ipcRenderer itself (DESIGN §5).
contextBridge.exposeInMainWorld(
  'desktop',
  createBridge((channel, ...args) => ipcRenderer.invoke(channel, ...args)),
);
