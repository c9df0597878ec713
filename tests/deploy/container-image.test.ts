import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaseSigningKeys } from '../../src/shared/api/licenses.js';
import { verifyLease } from '../../src/shared/lease.js';
import { localBaseImage } from './support/local-base-image.js';
import { containerLimits, containerSkipReason, run } from './support/podman.js';

/**
 * The Dockerfile as a self-hoster uses it: built (with a local stand-in for the official Node image,
 * which these machines cannot pull), started with a read-only root filesystem and a volume for
 * /data, then used over HTTP: the first administrator signs in, takes a license on a machine, checks
 * it, and the lease verifies against the server's published key. Minutes on a first run (Debian
 * base, npm ci, the build); the base and podman's layer cache make later runs shorter.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const API_KEY = 'dap-web-public';
const ADMIN = { email: 'operator@example.com', password: 'Container-Image-Test-7391' };
const HARDWARE_ID = 'container-image-test-machine';
const skipReason = containerSkipReason();

/** npm failures that mean "no registry from here", which must skip the test rather than fail it. */
const NO_REGISTRY =
  /ENOTCACHED|EAI_AGAIN|ENOTFOUND|ECONNREFUSED|ECONNRESET|ETIMEDOUT|SELF_SIGNED_CERT|UNABLE_TO_GET_ISSUER_CERT|network request .* failed/;

const id = `portal-image-test-${process.pid}`;
const image = `localhost/${id}`;
let workDirectory = '';
let base = '';
/** Set when the build could not reach what it needs: every test then skips with it. */
let unavailable: string | undefined;
let built = false;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise((done) => server.close(done));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * The npm settings of the build's RUN steps (mounted at /root/.npmrc, never part of the image):
 * this machine's npm cache first, so a machine that has run `npm ci` downloads nothing, and its
 * CA file, as npm here may reach the registry through a proxy with its own certificate.
 */
async function buildVolumes(): Promise<string[]> {
  const npmConfig = (key: string) => execFileSync('npm', ['config', 'get', key], { encoding: 'utf8' }).trim();
  const cache = npmConfig('cache');
  const cafile = npmConfig('cafile');
  const hasCafile = cafile !== '' && cafile !== 'null' && cafile !== 'undefined' && existsSync(cafile);
  const npmrc = join(workDirectory, 'npmrc');
  await writeFile(
    npmrc,
    [
      'prefer-offline=true',
      'fund=false',
      'audit=false',
      'update-notifier=false',
      ...(hasCafile ? [`cafile=${cafile}`] : []),
    ]
      .map((line) => `${line}\n`)
      .join(''),
  );
  return [
    '--volume',
    `${cache}:/root/.npm`,
    '--volume',
    `${npmrc}:/root/.npmrc:ro`,
    ...(hasCafile ? ['--volume', `${cafile}:${cafile}:ro`] : []),
  ];
}

/** `podman build` with its output streamed: each build step it starts is passed to `onStep`. */
async function buildImage(base: string, onStep: (step: string) => Promise<unknown>): Promise<void> {
  const args = [
    'build',
    // Docker's format keeps HEALTHCHECK (the OCI format has no field for it).
    '--format',
    'docker',
    ...containerLimits(),
    '--build-arg',
    `BASE=${base}`,
    ...(await buildVolumes()),
    '--tag',
    image,
    ROOT,
  ];
  const child = spawn('podman', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const steps: Promise<unknown>[] = [];
  const take = (chunk: Buffer) => {
    output += chunk.toString();
    for (const match of chunk.toString().matchAll(/^(\[\d+\/\d+\] STEP \d+\/\d+: .{0,80})/gm))
      steps.push(onStep(match[1] ?? ''));
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  const code = await new Promise<number | null>((done) => child.on('close', done));
  await Promise.all(steps);
  if (code !== 0) throw new Error(`podman build exited ${code}:\n${output.slice(-6000)}`);
}

describe.skipIf(skipReason)(`The container image${skipReason ? ` [skipped: ${skipReason}]` : ''}`, () => {
  beforeAll(async () => {
    workDirectory = join(tmpdir(), 'portal-image-test');
    await mkdir(workDirectory, { recursive: true });
  });

  afterAll(async () => {
    await run('podman', ['rm', '--force', '--volumes', id]).catch(() => undefined);
    await run('podman', ['volume', 'rm', '--force', `${id}-data`]).catch(() => undefined);
    await run('podman', ['image', 'rm', '--force', image]).catch(() => undefined);
  }, 120_000);

  it(
    'has a base to build from: Debian by debootstrap with this machine’s Node.js',
    async (context) => {
      await context.annotate('debootstrap, unless the base is in podman’s store already');
      base = await localBaseImage(workDirectory);
    },
    20 * 60_000,
  );

  it(
    'builds from the Dockerfile with that base',
    async (context) => {
      if (!base) context.skip('no base image (the test before failed)');
      try {
        // Each step is reported as it starts, so a build of several minutes is seen to progress.
        await buildImage(base, (step) => context.annotate(step));
      } catch (error) {
        const registryProblem = NO_REGISTRY.exec((error as Error).message);
        if (!registryProblem) throw error;
        unavailable = `npm could not fetch a package for the image (${registryProblem[0]}): run npm ci here first so its cache holds them`;
        context.skip(unavailable);
      }
      built = true;
    },
    30 * 60_000,
  );

  it('runs as an unprivileged user with a health check, and leaves the desktop shell and dev tools out', async (context) => {
    if (!built) context.skip(unavailable ?? 'no image (the build failed)');
    // podman reports the health check beside Config (docker inside it).
    const [inspected] = JSON.parse((await run('podman', ['image', 'inspect', image])).stdout) as {
      Config: { User: string; Volumes?: Record<string, unknown> };
      Healthcheck?: { Test: string[] };
    }[];
    expect(inspected?.Config.User).toBe('1000:1000');
    expect(inspected?.Healthcheck?.Test.join(' ')).toContain('/api/v1/health');
    expect(Object.keys(inspected?.Config.Volumes ?? {})).toEqual(['/data']);
    const listing = await run('podman', [
      'run',
      '--rm',
      ...containerLimits(),
      image,
      'node',
      '-e',
      "const fs = require('fs'); console.log(JSON.stringify(['out/main', 'out/preload', 'out/renderer/index.html', 'node_modules/electron', 'node_modules/vite', 'node_modules/better-sqlite3', 'src', 'tests'].filter((path) => fs.existsSync(path))))",
    ]);
    expect(JSON.parse(listing.stdout)).toEqual(['out/renderer/index.html', 'node_modules/better-sqlite3']);
  });

  it('serves on a read-only root filesystem with data on a volume: sign in, take a license, check it', async (context) => {
    if (!built) context.skip(unavailable ?? 'no image (the build failed)');
    const port = await freePort();
    await run('podman', [
      'run',
      '--detach',
      '--name',
      id,
      ...containerLimits(),
      '--read-only',
      '--volume',
      `${id}-data:/data`,
      '--publish',
      `127.0.0.1:${port}:8080`,
      '--env',
      `ADMIN_EMAIL=${ADMIN.email}`,
      '--env',
      `ADMIN_PASSWORD=${ADMIN.password}`,
      image,
    ]);
    const api = `http://127.0.0.1:${port}/api/v1`;
    await expect
      .poll(
        async () => {
          const response = await fetch(`${api}/health`).catch(() => undefined);
          return response?.status;
        },
        { timeout: 60_000, interval: 500 },
      )
      .toBe(200);

    // The image's own health check passes against the running server.
    await run('podman', ['healthcheck', 'run', id]);

    const call = async (path: string, body?: unknown, token?: string) => {
      const response = await fetch(`${api}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          'X-API-Key': API_KEY,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };

    const signIn = await call('/auth/login/json', ADMIN);
    expect(signIn.status).toBe(200);
    const token = String(signIn.body.access_token);
    const license = await call('/licenses/activate-base', { hardware_id: HARDWARE_ID }, token);
    expect(license.status).toBe(201);
    const check = await call('/licenses/validate', {
      license_key: license.body.license_key,
      hardware_id: HARDWARE_ID,
    });
    expect(check).toMatchObject({ status: 200, body: { valid: true, status: 'active' } });

    const keys = (await call('/licensing/public-key')).body as unknown as LeaseSigningKeys;
    const verification = await verifyLease(String(check.body.lease), {
      keys,
      hardwareId: HARDWARE_ID,
      nowSeconds: Math.floor(Date.now() / 1000),
    });
    expect(verification).toMatchObject({ ok: true });

    // What the server wrote went to the volume, as the unprivileged user; the rest is read-only.
    const inside = await run('podman', [
      'exec',
      id,
      'sh',
      '-c',
      'id -u; ls /data/keys; touch /app/written 2>/dev/null && echo app-writable || echo app-read-only',
    ]);
    const [uid, ...rest] = inside.stdout.trim().split('\n');
    expect(uid).toBe('1000');
    expect(rest).toEqual(expect.arrayContaining(['lease-signing-keys.json', 'app-read-only']));
  }, 180_000);

  it('stops on SIGTERM after draining, with exit code 0', async (context) => {
    if (!built) context.skip(unavailable ?? 'no image (the build failed)');
    await run('podman', ['stop', '--time', '30', id], { timeoutMs: 60_000 });
    const state = JSON.parse((await run('podman', ['inspect', id])).stdout) as {
      State: { ExitCode: number };
    }[];
    expect(state[0]?.State.ExitCode).toBe(0);
    const logs = await run('podman', ['logs', id]);
    expect(`${logs.stdout}${logs.stderr}`).toContain('readiness fails now');
  }, 90_000);
});
