import { defineConfig, type UserConfig } from 'electron-vite';
import desktopAndWeb from './electron.vite.config.js';

/**
 * The web portal alone (`npm run build:web`): the renderer of electron.vite.config.ts, without the
 * desktop's main process and preload, which the server never loads. `npm start` and the container
 * image build only this; `npm run build:app` still builds all three for the desktop shell.
 */
const { renderer } = desktopAndWeb as UserConfig;
export default defineConfig({ renderer });
