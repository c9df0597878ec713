// `npm run cli -- <command>`: the administrator's command line, run as compiled code (a command
// starts in about a second, where compiling the TypeScript first took several). The server is
// built first when its build is missing or older than its sources, with a line of progress on
// standard error, so standard output has only what the command prints.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildWhatIsStale, root, serverBuild } from './builds.mjs';

await buildWhatIsStale([serverBuild], { label: 'cli', progress: console.error });
await import(pathToFileURL(join(root, 'dist/server/cli.js')).href);
