import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadAll } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { configVariableNames } from '../../src/server/platform/config.js';
import { API_BASE_PATH } from '../../src/shared/routes.js';
import { apiPaths } from '../../src/shared/api-paths.js';

/**
 * The Dockerfile, the compose file and the Kubernetes manifests agree with the server: every
 * setting they pass is one the server reads (a misspelt name would be silently ignored), the probes
 * ask the health route, and the pieces name each other consistently. No cluster needed.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const READY_PATH = `${API_BASE_PATH}${apiPaths.healthReady}`;
const LIVE_PATH = `${API_BASE_PATH}${apiPaths.healthLive}`;
const settings = new Set(configVariableNames);

interface Manifest {
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  stringData?: Record<string, string>;
}

interface Container {
  env?: { name: string }[];
  envFrom?: { secretRef?: { name: string } }[];
  ports: { name: string; containerPort: number }[];
  securityContext: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean };
  startupProbe: { httpGet: { path: string } };
  readinessProbe: { httpGet: { path: string } };
  livenessProbe: { httpGet: { path: string } };
  volumeMounts: { name: string; mountPath: string }[];
}

interface PodSpec {
  securityContext: { runAsNonRoot: boolean; runAsUser: number };
  containers: Container[];
  volumes: { name: string; persistentVolumeClaim?: { claimName: string }; emptyDir?: object }[];
}

interface DeploymentSpec {
  replicas: number;
  strategy: { type: string };
  selector: { matchLabels: Record<string, string> };
  template: { metadata: { labels: Record<string, string> }; spec: PodSpec };
}

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const manifests = (directory: string): Manifest[] =>
  readdirSync(join(ROOT, directory))
    .filter((file) => file.endsWith('.yaml'))
    .flatMap((file) => loadAll(read(join(directory, file))) as Manifest[]);
const ofKind = (list: Manifest[], kind: string) => list.filter((manifest) => manifest.kind === kind);
const unknownSettings = (names: Iterable<string>) => [...names].filter((name) => !settings.has(name));

const dockerfile = read('Dockerfile');
const kubernetes = manifests('deploy/kubernetes');
const kubernetesSqlite = manifests('deploy/kubernetes/sqlite');
const [secret] = ofKind(kubernetes, 'Secret');
const [service] = ofKind(kubernetes, 'Service');

describe('The Dockerfile', () => {
  it('builds on the official image of a long-term-support Node that package.json allows, swappable with BASE', () => {
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    const oldest = Number(/^>=(\d+)\./.exec(engines)?.[1]);
    const base = /^ARG BASE=node:(\d+)-bookworm-slim$/m.exec(dockerfile);
    expect(base, 'ARG BASE=node:<major>-bookworm-slim').not.toBeNull();
    const major = Number(base?.[1]);
    // Even majors are Node's long-term-support lines.
    expect(major % 2, `node:${major} is not a long-term-support line`).toBe(0);
    expect(major).toBeGreaterThanOrEqual(oldest);
    expect(dockerfile.match(/^FROM \$\{BASE\}/gm)).toHaveLength(3);
  });

  it('sets only settings the server reads, runs unprivileged, keeps data on /data and probes health', () => {
    const envBlock = /^ENV ((?:.+\\\n)*.+)$/m.exec(dockerfile)?.[1] ?? '';
    const names = [...envBlock.matchAll(/([A-Z_]+)=/g)].map((match) => match[1] ?? '');
    expect(names).toEqual(expect.arrayContaining(['DATA_DIR', 'HOST', 'PORT']));
    expect(unknownSettings(names)).toEqual([]);
    expect(dockerfile).toMatch(/^USER 1000:1000$/m);
    expect(dockerfile).toMatch(/^VOLUME \["\/data"\]$/m);
    expect(dockerfile).toMatch(/DATA_DIR=\/data/);
    expect(dockerfile).toMatch(/^HEALTHCHECK /m);
    expect(dockerfile.slice(dockerfile.indexOf('HEALTHCHECK'))).toContain(READY_PATH);
  });

  it('leaves out of the build context what the image must not contain', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .filter((line) => line && !line.startsWith('#'));
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', 'data', '.env', '.git']));
  });
});

describe('The compose file', () => {
  const compose = loadAll(read('deploy/compose.yaml'))[0] as {
    services: Record<
      string,
      { environment?: Record<string, string>; volumes?: string[]; read_only?: boolean }
    >;
  };
  const portal = compose.services.portal;

  it('runs the portal with PostgreSQL and Redis, read-only, data on a volume', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['portal', 'postgres', 'redis']);
    expect(portal?.environment?.DATABASE_URL).toMatch(/^postgres:\/\/[^@]+@postgres:5432\//);
    expect(portal?.environment?.REDIS_URL).toBe('redis://redis:6379');
    expect(portal?.read_only).toBe(true);
    expect(portal?.volumes).toContain('portal-data:/data');
  });

  it('passes only settings the server reads', () => {
    expect(unknownSettings(Object.keys(portal?.environment ?? {}))).toEqual([]);
  });
});

describe.each([
  { variant: 'PostgreSQL and Redis', list: kubernetes, replicas: 2, strategy: 'RollingUpdate' },
  { variant: 'SQLite', list: kubernetesSqlite, replicas: 1, strategy: 'Recreate' },
])('The Kubernetes deployment on $variant', ({ list, replicas, strategy }) => {
  const [deployment] = ofKind(list, 'Deployment');
  const spec = deployment?.spec as unknown as DeploymentSpec;
  const pod = spec.template.spec;
  const [container] = pod.containers;

  it(`runs ${replicas} replica(s), replaced by ${strategy}`, () => {
    expect(spec.replicas).toBe(replicas);
    expect(spec.strategy.type).toBe(strategy);
  });

  it('takes the keys from the Secret and passes only settings the server reads', () => {
    expect(container?.envFrom).toEqual([{ secretRef: { name: secret?.metadata.name } }]);
    expect(unknownSettings((container?.env ?? []).map(({ name }) => name))).toEqual([]);
  });

  it('waits for and routes by readiness, and liveness asks the process alone (not the database)', () => {
    expect(container?.startupProbe.httpGet.path).toBe(READY_PATH);
    expect(container?.readinessProbe.httpGet.path).toBe(READY_PATH);
    expect(container?.livenessProbe.httpGet.path).toBe(LIVE_PATH);
  });

  it('runs as the image’s user on a read-only root filesystem, writing only /data and /tmp', () => {
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    expect(container?.securityContext).toMatchObject({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
    });
    expect(container?.volumeMounts.map(({ mountPath }) => mountPath).sort()).toEqual(['/data', '/tmp']);
  });

  it('is what the Service selects and serves', () => {
    expect(spec.selector.matchLabels).toEqual(spec.template.metadata.labels);
    const serviceSpec = service?.spec as {
      selector: Record<string, string>;
      ports: { targetPort: string }[];
    };
    expect(serviceSpec.selector).toEqual(spec.selector.matchLabels);
    expect(container?.ports.map(({ name }) => name)).toContain(serviceSpec.ports[0]?.targetPort);
  });
});

describe('The Kubernetes data', () => {
  it('keeps every key the replicas must share in the Secret, all of them settings the server reads', () => {
    const keys = Object.keys(secret?.stringData ?? {});
    expect(keys).toEqual(
      expect.arrayContaining([
        'DATABASE_URL',
        'REDIS_URL',
        'JWT_SECRET',
        'LEASE_SIGNING_KEY',
        'TWO_FACTOR_KEY',
      ]),
    );
    expect(unknownSettings(keys)).toEqual([]);
  });

  it('gives a PersistentVolumeClaim to the SQLite deployment only', () => {
    const claims = ofKind(kubernetesSqlite, 'PersistentVolumeClaim').map(({ metadata }) => metadata.name);
    const sqlitePod = (ofKind(kubernetesSqlite, 'Deployment')[0]?.spec as unknown as DeploymentSpec).template
      .spec;
    expect(sqlitePod.volumes.find(({ name }) => name === 'data')?.persistentVolumeClaim?.claimName).toBe(
      claims[0],
    );
    expect(ofKind(kubernetes, 'PersistentVolumeClaim')).toEqual([]);
    const pod = (ofKind(kubernetes, 'Deployment')[0]?.spec as unknown as DeploymentSpec).template.spec;
    expect(pod.volumes.find(({ name }) => name === 'data')).toHaveProperty('emptyDir');
  });
});
