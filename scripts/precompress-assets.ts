import { readdir, readFile, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/** Text files a browser downloads; images and fonts are compressed already. */
const COMPRESSIBLE = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.svg',
  '.json',
  '.txt',
  '.webmanifest',
  '.map',
]);
/** Below this, the headers of a compressed answer cost more than they save. */
const MIN_BYTES = 1024;

const toBrotli = promisify(brotliCompress);
const toGzip = promisify(gzip);

export interface PrecompressedFile {
  file: string;
  bytes: number;
  brotli: number;
  gzip: number;
}

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    // The build's own bookkeeping (.vite/) is never served.
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile() && COMPRESSIBLE.has(extname(entry.name))) yield path;
  }
}

/**
 * Writes `file.br` (brotli, best quality) and `file.gz` (gzip, level 9) beside every text file of
 * the web build worth compressing, once at build time, so the server sends them without spending
 * CPU per request. A variant that would not be smaller is not written.
 */
export async function precompressDirectory(dir: string): Promise<PrecompressedFile[]> {
  const written: PrecompressedFile[] = [];
  for await (const file of filesUnder(dir)) {
    const content = await readFile(file);
    if (content.length < MIN_BYTES) continue;
    const [brotli, gzipped] = await Promise.all([
      toBrotli(content, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
        },
      }),
      toGzip(content, { level: constants.Z_BEST_COMPRESSION }),
    ]);
    if (brotli.length < content.length) await writeFile(`${file}.br`, brotli);
    if (gzipped.length < content.length) await writeFile(`${file}.gz`, gzipped);
    written.push({ file, bytes: content.length, brotli: brotli.length, gzip: gzipped.length });
  }
  return written;
}
