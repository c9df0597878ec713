import { execFile } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/**
 * Podman as Debian ships it runs containers on these machines only with runc (crun fails on their
 * hybrid cgroups) and with limits no higher than the machine's own (else the runtime refuses to
 * start the container).
 */
export function containerLimits(): string[] {
  return ['--runtime', 'runc', '--ulimit', `nofile=${openFilesLimit()}`, '--ulimit', 'nproc=4096:4096'];
}

/** This process's `Max open files` soft:hard, as a container may have them. */
function openFilesLimit(): string {
  const line = readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('Max open files'));
  const [soft, hard] = line?.split(/\s{2,}/).slice(1, 3) ?? [];
  if (!soft || !hard || soft === 'unlimited') return '4096:4096';
  return `${soft}:${hard === 'unlimited' ? soft : hard}`;
}

export interface CommandResult {
  stdout: string;
  stderr: string;
}

/** Runs a program and returns its output; throws with both streams in the message when it fails. */
export async function run(
  program: string,
  args: string[],
  options: { cwd?: string; timeoutMs?: number } = {},
): Promise<CommandResult> {
  try {
    return await execFileAsync(program, args, {
      cwd: options.cwd,
      timeout: options.timeoutMs ?? 60_000,
      maxBuffer: 64 * 1024 * 1024,
      encoding: 'utf8',
    });
  } catch (error) {
    const failure = error as Error & Partial<CommandResult>;
    throw new Error(
      `${program} ${args.join(' ')} failed: ${failure.message}\n${failure.stdout ?? ''}\n${failure.stderr ?? ''}`,
      { cause: error },
    );
  }
}

/** The path of a program on PATH, or undefined. */
export function onPath(program: string): string | undefined {
  for (const directory of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(directory, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

/** Why this machine cannot build and run the image, or undefined when it can. */
export function containerSkipReason(): string | undefined {
  if (process.platform !== 'linux') return 'the image test runs on Linux only';
  if (process.getuid?.() !== 0) return 'debootstrap and rootful podman need root';
  const missing = ['podman', 'debootstrap', 'runc'].filter((program) => !onPath(program));
  if (missing.length > 0)
    return `${missing.join(', ')} not installed (apt-get install podman debootstrap runc)`;
  return undefined;
}
