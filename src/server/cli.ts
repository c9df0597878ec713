import { runCommand } from './cli-commands.js';

// The administrator's command line (`npm run cli -- <command>`); the commands are in cli-commands.ts.
void runCommand(process.argv.slice(2)).then((code) => {
  if (code !== 0) process.exit(code);
});
