import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/platform/config.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The real server's OpenAPI document as JSON text, built once per run. */
    openApiDocument: string;
  }
}

/**
 * Global setup of the renderer tests: builds the real server once, in Node, and hands its OpenAPI
 * document to the jsdom test files, where the fake API checks every answer against it.
 */
export default async function provideOpenApiDocument(project: TestProject): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'portal-api-document-'));
  try {
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
      await app.ready();
      project.provide('openApiDocument', JSON.stringify(app.swagger()));
    } finally {
      await app.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
