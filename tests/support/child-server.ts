import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { childEnvironment } from './child-environment.js';

const ROOT = resolve(import.meta.dirname, '../..');

/** The real server entry point in a child process, as a deployment runs it. */
export interface RunningServer {
  child: ChildProcess;
  port: number;
  baseUrl: string;
  output: { stdout: string; stderr: string };
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const started: RunningServer[] = [];

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const address = probe.address();
  await new Promise((done) => probe.close(done));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * Starts `node --import tsx src/server/main.ts` on loopback; `env` wins over `port`. SIGTERM stops
 * it without the drain a load balancer needs (SHUTDOWN_DRAIN_SECONDS=0) unless `env` sets one.
 */
export function startChildServer(env: Record<string, string>, port: number): RunningServer {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: childEnvironment({
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      SHUTDOWN_DRAIN_SECONDS: '0',
      ...env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout?.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  const server = { child, port, baseUrl: `http://127.0.0.1:${port}`, output, exited };
  started.push(server);
  return server;
}

/** Waits for `/health` to answer 200; a server that exits or never answers fails with its output. */
export async function waitUntilHealthy(server: RunningServer, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null)
      throw new Error(`server exited early (${server.child.exitCode}):\n${server.output.stderr}`);
    try {
      const response = await fetch(`${server.baseUrl}/api/v1/health`);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(
    `server not healthy after ${timeoutMs} ms:\n${server.output.stdout}\n${server.output.stderr}`,
  );
}

/** SIGKILLs every child server still running, so a failed test leaves none behind (for afterEach). */
export async function killChildServers(): Promise<void> {
  for (const server of started.splice(0)) {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
  }
}
