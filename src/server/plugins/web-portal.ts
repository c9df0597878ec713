import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
/** Where the build writes its copies of index.html shaped for one path (see electron.vite.config.ts). */
const ROUTE_PAGES_DIR = 'routes';

/**
 * The paths the build wrote an index.html of their own for (`routes/landing/index.html` for
 * /landing): the app shell plus preload links for that screen's chunks, so they download at once.
 */
function routePages(webDir: string): Map<string, string> {
  const dir = join(webDir, ROUTE_PAGES_DIR);
  if (!existsSync(dir)) return new Map();
  return new Map(
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((file) => file === 'index.html' || file.endsWith(`${sep}index.html`))
      .map((file) => [`/${dirname(file).split(sep).join('/')}`, join(ROUTE_PAGES_DIR, file)]),
  );
}

/**
 * Serves the built renderer: hashed assets cached for a year, index.html (or the build's copy of
 * it for the path, see {@link routePages}) always revalidated, each precompressed where the client
 * accepts it.
 * Returns the SPA fallback for the not-found handler, or `undefined` when there is no build.
 */
export async function registerWebPortal(
  app: FastifyInstance,
  webDir: string,
): Promise<((request: FastifyRequest, reply: FastifyReply) => FastifyReply) | undefined> {
  if (!existsSync(join(webDir, 'index.html'))) {
    app.log.warn({ webDir }, 'no web portal build found; run `npm run build` to serve the portal');
    return undefined;
  }
  await app.register(fastifyStatic, {
    root: webDir,
    wildcard: true,
    // The build's own bookkeeping (.vite/manifest.json) is not part of the site.
    dotfiles: 'ignore',
    // Off, or send's own `public, max-age=0` replaces the header set below.
    cacheControl: false,
    // The build writes .br and .gz beside each file worth compressing; they are sent as they are
    // to clients that accept them, with `Vary: Accept-Encoding`.
    preCompressed: true,
    setHeaders(reply: FastifyReply, path: string) {
      // Relative to the build, so a WEB_DIR that itself lies under some `assets` folder changes nothing.
      const hashed = relative(webDir, path).startsWith(`assets${sep}`);
      reply.header('cache-control', hashed ? IMMUTABLE : REVALIDATE);
    },
  });
  const pages = routePages(webDir);
  return (request, reply) =>
    reply
      .header('cache-control', REVALIDATE)
      .sendFile(pages.get(request.url.split('?')[0] ?? '') ?? 'index.html');
}

/** Client-side routes (no file extension, a page request) get the app; missing files stay 404. */
export const isPortalRoute = (request: FastifyRequest): boolean =>
  (request.method === 'GET' || request.method === 'HEAD') &&
  !/\.[a-z0-9]+$/i.test(request.url.split('?')[0] ?? '') &&
  !request.url.startsWith('/api');
