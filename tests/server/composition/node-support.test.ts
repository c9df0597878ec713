import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const readJson = <T>(file: string) => JSON.parse(readFileSync(resolve(ROOT, file), 'utf8')) as T;

interface LockedPackage {
  version?: string;
  dev?: boolean;
  engines?: { node?: string } | string[];
}

const manifest = readJson<{ engines: { node: string } }>('package.json');
const lock = readJson<{ packages: Record<string, LockedPackage> }>('package-lock.json');

/** The Node versions the README promises: the lowest package.json allows, and the 22 and 24 lines. */
const promised = [semver.minVersion(manifest.engines.node)?.version ?? '', '22.12.0', '24.0.0'];

/** What the installed server needs on a machine (`npm ci --omit=dev`): every package not marked dev. */
const runtimePackages = Object.entries(lock.packages).filter(([path, entry]) => path !== '' && !entry.dev);

describe('Node.js versions', () => {
  it('package.json promises Node 20.19 and newer', () => {
    expect(promised[0]).toBe('20.19.0');
  });

  it.each(promised)('every runtime dependency declares support for Node %s', (version) => {
    const refusing = runtimePackages
      .map(([path, entry]) => {
        const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        return { name: `${path.replace(/^.*node_modules\//, '')}@${entry.version}`, range };
      })
      .filter(({ range }) => range !== undefined && !semver.satisfies(version, range))
      .map(({ name, range }) => `${name} needs Node ${range}`);
    expect(refusing).toEqual([]);
  });
});
