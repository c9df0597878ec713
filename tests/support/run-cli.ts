import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { format } from 'node:util';
import { runCommand } from '../../src/server/cli-commands.js';
import { childEnvironment } from './child-environment.js';

const ROOT = resolve(import.meta.dirname, '../..');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliLaunch {
  /**
   * 'in-process' (the default): the CLI's commands run in this process, what they print caught as
   * they print it. 'process': the real CLI in a Node process of its own, as `npm run cli` starts it
   * (tsx compiling every source again: about 4 s of CPU each time), for what only a process shows:
   * the exit code, and that nothing but the operator's lines reaches stdout.
   */
  via?: 'in-process' | 'process';
}

let running = false;

/** Runs the CLI's commands with `env` as the only settings, as an operator would. */
export async function runCli(
  args: string[],
  env: Record<string, string>,
  { via = 'in-process' }: CliLaunch = {},
): Promise<CliResult> {
  if (via === 'process') return runCliProcess(args, env);
  // Output is caught on the console, which one command at a time can have.
  if (running) throw new Error('runCli: one in-process command at a time');
  running = true;
  const streams = { stdout: '', stderr: '' };
  const { log, info, warn, error } = console;
  const to =
    (stream: keyof typeof streams) =>
    (...parts: unknown[]) => {
      streams[stream] += `${format(...parts)}\n`;
    };
  Object.assign(console, { log: to('stdout'), info: to('stdout'), warn: to('stderr'), error: to('stderr') });
  try {
    const code = await runCommand(args, childEnvironment(env));
    return { code, ...streams };
  } finally {
    Object.assign(console, { log, info, warn, error });
    running = false;
  }
}

function runCliProcess(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/server/cli.ts', ...args],
      // Generous: a loaded machine can take many seconds to start tsx.
      { cwd: ROOT, env: childEnvironment(env), timeout: 80_000 },
      (error, stdout, stderr) =>
        done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}
