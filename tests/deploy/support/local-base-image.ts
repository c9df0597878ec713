import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { cp, mkdir, rm, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { onPath, run } from './podman.js';

/**
 * A stand-in for the official `node:20-bookworm-slim`, for machines that cannot pull images: Debian
 * bookworm from the machine's own apt mirror (debootstrap), with this machine's Node.js and npm
 * where the official image keeps them (/usr/local), its headers (so better-sqlite3 compiles without
 * downloading them) and a compiler. Made once per Node version and kept in podman's store.
 */
export async function localBaseImage(workDirectory: string): Promise<string> {
  const image = `localhost/portal-test-base:node-${process.versions.node}`;
  const present = await run('podman', ['image', 'exists', image]).then(
    () => true,
    () => false,
  );
  if (present) return image;

  const rootfs = join(workDirectory, 'rootfs');
  await rm(rootfs, { recursive: true, force: true });
  await run(
    'debootstrap',
    ['--variant=minbase', '--include=python3,make,g++', 'bookworm', rootfs, debianMirror()],
    { timeoutMs: 15 * 60_000 },
  );
  await copyNodeInto(rootfs);
  await rm(join(rootfs, 'var/lib/apt/lists'), { recursive: true, force: true });
  await importRootfs(rootfs, image);
  await rm(rootfs, { recursive: true, force: true });
  return image;
}

/** The Debian mirror apt uses here (reachable where the internet may not be), else Debian's own. */
function debianMirror(): string {
  const sources = ['/etc/apt/sources.list', '/etc/apt/sources.list.d']
    .flatMap((path) => {
      if (!existsSync(path)) return [];
      if (path.endsWith('.d'))
        return readdirSync(path)
          .filter((file) => /\.(list|sources)$/.test(file))
          .map((file) => readFileSync(join(path, file), 'utf8'));
      return [readFileSync(path, 'utf8')];
    })
    .join('\n');
  const urls = [
    ...sources.matchAll(/^\s*URIs:\s*(\S+)/gm),
    ...sources.matchAll(/^\s*deb\s+(?:\[[^\]]*\]\s+)?(\S+)/gm),
  ].map((match) => match[1] ?? '');
  return (
    urls.find((url) => /^https?:\/\//.test(url) && !/security/.test(url)) ?? 'http://deb.debian.org/debian'
  );
}

/** This machine's node, npm and headers, laid out as in the official image (/usr/local). */
async function copyNodeInto(rootfs: string): Promise<void> {
  const local = join(rootfs, 'usr/local');
  await cp(process.execPath, join(local, 'bin/node'));
  const npmCli = onPath('npm');
  if (!npmCli) throw new Error('npm is not on PATH');
  // …/lib/node_modules/npm/bin/npm-cli.js → …/lib/node_modules/npm
  const npmPackage = dirname(dirname(realpathSync(npmCli)));
  await mkdir(join(local, 'lib/node_modules'), { recursive: true });
  await cp(npmPackage, join(local, 'lib/node_modules/npm'), { recursive: true });
  await symlink('../lib/node_modules/npm/bin/npm-cli.js', join(local, 'bin/npm'));
  await symlink('../lib/node_modules/npm/bin/npx-cli.js', join(local, 'bin/npx'));
  const headers = join(dirname(dirname(process.execPath)), 'include/node');
  if (existsSync(headers)) {
    await mkdir(join(local, 'include'), { recursive: true });
    await cp(headers, join(local, 'include/node'), { recursive: true });
  }
}

/** `tar -C rootfs -c . | podman import - image`, with node-gyp pointed at the copied headers. */
async function importRootfs(rootfs: string, image: string): Promise<void> {
  const tar = spawn('tar', ['-C', rootfs, '-c', '.'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const podman = spawn(
    'podman',
    ['import', '--change', 'ENV npm_config_nodedir=/usr/local', '--change', 'CMD ["node"]', '-', image],
    { stdio: ['pipe', 'ignore', 'pipe'] },
  );
  tar.stdout.pipe(podman.stdin);
  let errors = '';
  podman.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exitCode = (child: ChildProcess) =>
    new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const [tarCode, podmanCode] = await Promise.all([exitCode(tar), exitCode(podman)]);
  if (tarCode !== 0 || podmanCode !== 0)
    throw new Error(
      `importing ${rootfs} as ${image} failed (tar ${tarCode}, podman ${podmanCode}): ${errors}`,
    );
}
