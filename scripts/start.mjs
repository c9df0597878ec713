// `npm start`: builds what the server serves (the server, and the web portal without the desktop
// shell's main and preload) when a build is missing or older than its sources, then runs the
// compiled server in this process (so signals reach it directly).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildWhatIsStale, root, serverBuild, webBuild } from './builds.mjs';

await buildWhatIsStale([serverBuild, webBuild], { label: 'start', progress: console.log });
console.log('[start] starting the server…');
await import(pathToFileURL(join(root, 'dist/server/main.js')).href);
