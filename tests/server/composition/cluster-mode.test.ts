import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  freePort,
  killChildServers,
  startChildServer,
  waitUntilHealthy,
} from '../../support/child-server.js';

const temporaryDirs: string[] = [];
afterEach(killChildServers);
afterAll(async () => {
  for (const dir of temporaryDirs) await rm(dir, { recursive: true, force: true });
});

/** A process's command name, from /proc (the parent pid is the 4th field, after it in parentheses). */
function readStat(pid: number | 'self'): { command: string; fields: string[] } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return {
    command: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
    fields: stat.slice(stat.lastIndexOf(')') + 2).split(' '),
  };
}

/** What a Node process is called there: `node`, or `MainThread` from Node 24 on (its main thread's name). */
const NODE_COMMAND = readStat('self').command;

/** The live Node child processes of `pid` (its workers; tsx's esbuild service is not one), from /proc. */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const { command, fields } = readStat(Number(entry));
      if (command === NODE_COMMAND && Number(fields[1]) === pid && fields[0] !== 'Z')
        children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

/** How long the primary waits before replacing a worker that dies (a quicker death stops the cluster). */
const WORKER_SETTLE_MS = 5_500;

describe.runIf(process.platform === 'linux')('WORKERS=2: two server processes share the port', () => {
  it('prepares once, starts two workers that answer, replaces a crashed one and stops them all on SIGTERM', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'portal-cluster-'));
    temporaryDirs.push(dataDir);
    const server = startChildServer({ DATA_DIR: dataDir, WORKERS: '2', NODE_ENV: 'test' }, await freePort());
    await waitUntilHealthy(server);
    const primary = server.child.pid as number;

    await expect.poll(() => childrenOf(primary).length).toBe(2);
    expect(server.output.stdout.match(/First administrator created\./g)).toHaveLength(1);
    expect(server.output.stdout).toContain('[cluster] 2 server processes');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => fetch(`${server.baseUrl}/api/v1/health`).then((r) => r.status)),
    );
    expect(answers.every((status) => status === 200)).toBe(true);

    // Past the start-up window, a worker that dies is replaced rather than stopping the cluster.
    await sleep(WORKER_SETTLE_MS);
    const [victim] = childrenOf(primary);
    process.kill(victim as number, 'SIGKILL');
    await expect
      .poll(() => {
        const workers = childrenOf(primary);
        return workers.length === 2 && !workers.includes(victim as number);
      })
      .toBe(true);
    await waitUntilHealthy(server);

    const workers = childrenOf(primary);
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    for (const pid of workers) expect(() => process.kill(pid, 0)).toThrow();
    // Three Node processes start, and one more after the kill: on a busy machine that alone takes
    // most of the default 30 s, so this test has its own ceiling.
  }, 120_000);
});
