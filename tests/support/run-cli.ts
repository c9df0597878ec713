import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { childEnvironment } from './child-environment.js';

const ROOT = resolve(import.meta.dirname, '../..');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI (`npm run cli -- …`) in its own Node process, as an operator would. */
export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/server/cli.ts', ...args],
      { cwd: ROOT, env: childEnvironment(env), timeout: 25_000 },
      (error, stdout, stderr) =>
        done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}
