import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { constants } from 'node:zlib';
import { API_BASE_PATH } from '../../../shared/routes.js';
import { apiPaths } from '../../../shared/api-paths.js';

/** Answers smaller than this go as they are: compressing them costs more than it saves. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Brotli's quality 4 compresses JSON nearly as well as gzip's best at a fraction of brotli's
 * default (11), which is meant for files compressed once (the portal's own files are, at build).
 */
const BROTLI_QUALITY = 4;

/** Where the sign-in, refresh and logout answers live (`/api/v1/auth/…`). */
const AUTH_PREFIX = `${API_BASE_PATH}/auth/`;
/** Installers: compressed already, large, and downloaded with a progress bar that needs their length. */
const DOWNLOAD_FILE = `${API_BASE_PATH}${apiPaths.downloads.file}`;

/**
 * Compresses answers above {@link COMPRESSION_THRESHOLD_BYTES} for clients that accept brotli or
 * gzip (a maintained plugin, with `Vary: Accept-Encoding`). The portal's files arrive already
 * compressed from the build and pass through untouched, and installers go as they are. Sign-in
 * and refresh answers, which carry tokens, are never compressed, so their length cannot leak them
 * (BREACH). Compressed request bodies are refused like any other unsupported body: nothing is
 * inflated on the way in.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(AUTH_PREFIX) || route.url === DOWNLOAD_FILE) route.compress = false;
  });
  await app.register(fastifyCompress, {
    threshold: COMPRESSION_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
    globalDecompression: false,
  });
}
