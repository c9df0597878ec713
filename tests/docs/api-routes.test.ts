import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { API_REFERENCE_FILE, apiReferenceMarkdown } from '../../scripts/api-reference.js';
import { servedDocument } from '../../scripts/openapi-types.js';

/** docs/api-routes.md is what `npm run docs:api` makes from the OpenAPI document the server serves now. */
it('docs/api-routes.md lists the routes of the served OpenAPI document (else run npm run docs:api)', async () => {
  const document = await servedDocument();
  const expected = await apiReferenceMarkdown(document);
  const committed = await readFile(API_REFERENCE_FILE, 'utf8');
  expect(committed).toBe(expected);
  // Every API operation of the document has its row.
  const operations = Object.entries(document.paths ?? {})
    .filter(([path]) => path.startsWith('/api/v1/'))
    .flatMap(([path, item]) =>
      ['get', 'post', 'put', 'patch', 'delete']
        .filter((method) => item && method in item)
        .map((method) => `| ${method.toUpperCase()} | \`${path.slice('/api/v1'.length)}\``),
    );
  const rows = committed.split('\n').map((line) => line.replace(/\s+\|/g, ' |').replace(/\|\s+/g, '| '));
  expect(operations.filter((operation) => !rows.some((row) => row.startsWith(operation)))).toEqual([]);
}, 60_000);
