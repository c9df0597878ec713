/**
 * Writes the TypeScript types of the portal API (tests/server/generated/portal-api.d.ts) from the
 * OpenAPI document the server serves, for clients made with openapi-fetch:
 * `npm run openapi:types` (from a server built here), or `npm run openapi:types -- <document URL>`.
 * tests/server/platform/openapi-client.test.ts fails while the committed file differs from what this writes.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/server/platform/config.js';
import { OPENAPI_DOCUMENT_PATH } from '../src/shared/routes.js';

export const GENERATED_TYPES_FILE = resolve(import.meta.dirname, '../tests/server/generated/portal-api.d.ts');

const HEADER =
  COMMENT_HEADER +
  `// Made from ${OPENAPI_DOCUMENT_PATH} by \`npm run openapi:types\`; a test fails while it is stale.\n\n`;

/**
 * The types of a served OpenAPI document, as openapi-typescript writes them (the file is left out
 * of Prettier: formatting its 13 000 lines would triple the time the staleness test takes).
 */
export async function generatePortalApiTypes(document: OpenAPI3): Promise<string> {
  return HEADER + astToString(await openapiTS(document, { silent: true }));
}

/** The document of a server built here, on a throwaway data folder, served over a real socket. */
export async function servedDocument(): Promise<OpenAPI3> {
  const dataDir = await mkdtemp(join(tmpdir(), 'portal-openapi-types-'));
  const app = await buildApp(
    loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      WEB_DIR: join(dataDir, 'no-web-build'),
      JWT_SECRET: randomBytes(32).toString('base64url'),
      LOG_LEVEL: 'silent',
    }),
    { logger: false },
  );
  try {
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    return await fetchDocument(`${base}${OPENAPI_DOCUMENT_PATH}`);
  } finally {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function fetchDocument(url: string): Promise<OpenAPI3> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return (await response.json()) as OpenAPI3;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const url = process.argv[2];
  const document = url ? await fetchDocument(url) : await servedDocument();
  await writeFile(GENERATED_TYPES_FILE, await generatePortalApiTypes(document));
  console.log(`wrote ${GENERATED_TYPES_FILE}`);
}
