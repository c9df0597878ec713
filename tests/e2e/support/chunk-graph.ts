import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One entry of Vite's `.vite/manifest.json` (the fields this check reads). */
export interface ManifestChunk {
  file: string;
  /** The entry module, relative to the renderer root (`src/pages/licenses-page.tsx`); shared chunks have none. */
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  /** Manifest keys of the chunks loaded with this one, before it runs. */
  imports?: string[];
  /** Manifest keys of the chunks it may load later with `import()`. */
  dynamicImports?: string[];
}

/**
 * Renderer source folder of the admin console (relative to src/renderer): the admin feature holds
 * its pages, endpoints, slice and components; the generic UI it uses lives in components/ and
 * knows nothing of admin.
 */
export const ADMIN_SOURCE_DIRS = ['src/features/admin/'];

export const isAdminModule = (id: string) => ADMIN_SOURCE_DIRS.some((dir) => id.startsWith(dir));

/**
 * The renderer build's chunk graph: Vite's manifest (chunks and their static and dynamic imports)
 * plus `.vite/chunk-modules.json` (every source module of every chunk, written by the
 * `chunk-modules` plugin of electron.vite.config.ts).
 */
export class ChunkGraph {
  private constructor(
    readonly manifest: Record<string, ManifestChunk>,
    private readonly modulesByFile: Record<string, string[]>,
  ) {}

  static async read(buildDir: string): Promise<ChunkGraph> {
    const readJson = async (name: string) => {
      const path = join(buildDir, '.vite', name);
      try {
        return JSON.parse(await readFile(path, 'utf8')) as unknown;
      } catch (error) {
        throw new Error(
          `${path} is missing or unreadable: the renderer must be built with build.manifest and the ` +
            'chunk-modules plugin (electron.vite.config.ts)',
          { cause: error },
        );
      }
    };
    const graph = new ChunkGraph(
      (await readJson('manifest.json')) as Record<string, ManifestChunk>,
      (await readJson('chunk-modules.json')) as Record<string, string[]>,
    );
    for (const [key, chunk] of Object.entries(graph.manifest))
      if (chunk.file.endsWith('.js') && !graph.modulesByFile[chunk.file])
        throw new Error(`chunk-modules.json does not list ${chunk.file} (${key}): a stale or mixed build`);
    return graph;
  }

  /** The manifest key of the HTML entry (index.html). */
  get entryKey(): string {
    const keys = Object.keys(this.manifest).filter((key) => this.manifest[key]?.isEntry);
    if (keys.length !== 1) throw new Error(`expected one entry chunk, found ${keys.join(', ') || 'none'}`);
    return keys[0] as string;
  }

  chunk(key: string): ManifestChunk {
    const chunk = this.manifest[key];
    if (!chunk) throw new Error(`no chunk ${key} in the manifest`);
    return chunk;
  }

  /** The manifest key of the chunk whose entry module is `src` (e.g. `src/pages/dashboard-page.tsx`). */
  keyOfSource(src: string): string {
    const key = Object.keys(this.manifest).find((candidate) => this.manifest[candidate]?.src === src);
    if (!key) throw new Error(`no chunk has ${src} as its entry module (is it still lazily loaded?)`);
    return key;
  }

  /** The chunk `key` and every chunk it imports statically, directly or not (what loads with it). */
  staticClosure(key: string): Set<string> {
    const seen = new Set<string>();
    const visit = (current: string) => {
      if (seen.has(current)) return;
      seen.add(current);
      for (const next of this.chunk(current).imports ?? []) visit(next);
    };
    visit(key);
    return seen;
  }

  /**
   * Every chunk reachable from `start` through static and dynamic imports, except dynamic imports
   * that `skip(from, to)` leaves out.
   */
  reachable(start: string, skip: (from: string, to: string) => boolean = () => false): Set<string> {
    const seen = new Set<string>();
    const visit = (current: string) => {
      if (seen.has(current)) return;
      seen.add(current);
      const chunk = this.chunk(current);
      for (const next of chunk.imports ?? []) visit(next);
      for (const next of chunk.dynamicImports ?? []) if (!skip(current, next)) visit(next);
    };
    visit(start);
    return seen;
  }

  /** The source modules bundled into a chunk (relative to src/renderer; node_modules start with `../../`). */
  modulesOf(key: string): string[] {
    return this.modulesByFile[this.chunk(key).file] ?? [];
  }

  /** Admin modules among the chunks, as `chunk file: module` lines. */
  adminModulesIn(keys: Iterable<string>): string[] {
    return [...keys].flatMap((key) =>
      this.modulesOf(key)
        .filter(isAdminModule)
        .map((module) => `${this.chunk(key).file}: ${module}`),
    );
  }

  /** The manifest keys whose chunk file is served at `pathname` (e.g. `/assets/index-abc.js`). */
  keysOfFile(pathname: string): string[] {
    return Object.keys(this.manifest).filter((key) => `/${this.manifest[key]?.file}` === pathname);
  }

  /** Source modules of the chunk file served at `pathname`. */
  modulesOfFile(pathname: string): string[] {
    return this.modulesByFile[pathname.replace(/^\//, '')] ?? [];
  }

  /** Manifest keys of the chunks that import `key` statically, and of those that import it dynamically. */
  importersOf(key: string): { static: string[]; dynamic: string[] } {
    const entries = Object.entries(this.manifest);
    return {
      static: entries.filter(([, chunk]) => chunk.imports?.includes(key)).map(([from]) => from),
      dynamic: entries.filter(([, chunk]) => chunk.dynamicImports?.includes(key)).map(([from]) => from),
    };
  }
}
