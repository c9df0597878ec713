import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_KEY_META_NAME } from '../../../shared/constants.js';

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

const escapeAttribute = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** A page as sent: the build's HTML with the web key in its head, and the ETag that revalidates it. */
interface Page {
  html: string;
  etag: string;
}

/**
 * The build's HTML with a `<meta>` naming the web client's X-API-Key (the renderer reads it at
 * start, lib/services.ts), so API_KEYS can change without a new build. A meta tag, not an inline
 * script: the CSP allows no inline script.
 */
function pageWithKey(html: string, webApiKey: string | undefined): Page {
  const meta = webApiKey
    ? `<meta name="${API_KEY_META_NAME}" content="${escapeAttribute(webApiKey)}" />`
    : '';
  const withKey = meta ? html.replace(/<head>/i, (head) => `${head}${meta}`) : html;
  return {
    html: withKey,
    etag: `"${createHash('sha256').update(withKey).digest('base64url').slice(0, 27)}"`,
  };
}

/**
 * Serves the built renderer: hashed assets cached for a year, each precompressed where the client
 * accepts it; index.html (or the build's copy of it for the path, see {@link routePages}) from
 * memory with the web key in it (see {@link pageWithKey}), always revalidated.
 * Returns the SPA fallback for the not-found handler, or `undefined` when there is no build.
 */
export async function registerWebPortal(
  app: FastifyInstance,
  webDir: string,
  webApiKey: string | undefined,
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
    // Pages are sent from memory with the key in them (below), never as the build wrote them.
    index: false,
    allowedPath: (pathName: string) => !pathName.endsWith('.html'),
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
  const read = (file: string) => pageWithKey(readFileSync(join(webDir, file), 'utf8'), webApiKey);
  const shell = read('index.html');
  const pages = new Map([...routePages(webDir)].map(([path, file]) => [path, read(file)]));
  const servePage = (request: FastifyRequest, reply: FastifyReply) => {
    const page = pages.get(request.url.split('?')[0] ?? '') ?? shell;
    reply.header('cache-control', REVALIDATE).header('etag', page.etag);
    if (request.headers['if-none-match'] === page.etag) return reply.code(304).send();
    return reply.type('text/html; charset=utf-8').send(page.html);
  };
  // Asked for by name, the static files would answer: with `index: false` and .html refused, not.
  app.get('/', servePage);
  app.get('/index.html', servePage);
  return servePage;
}

/** Client-side routes (no file extension, a page request) get the app; missing files stay 404. */
export const isPortalRoute = (request: FastifyRequest): boolean =>
  (request.method === 'GET' || request.method === 'HEAD') &&
  !/\.[a-z0-9]+$/i.test(request.url.split('?')[0] ?? '') &&
  !request.url.startsWith('/api');
