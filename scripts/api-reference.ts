/**
 * Writes docs/api-routes.md, the table of every API route, from the OpenAPI document the server
 * serves: `npm run docs:api` (from the sources here). Each route's line is its method, path,
 * summary, request body fields and answers as the route declares them, so the table cannot drift
 * from the code; tests/docs/api-reference.test.ts fails while the committed file differs.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { OpenAPI3 } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';
import { API_BASE_PATH, SCIM_BASE_PATH } from '../src/shared/routes.js';
import { servedDocument } from './openapi-types.js';

export const API_REFERENCE_FILE = resolve(import.meta.dirname, '../docs/api-routes.md');

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** The parts of an OpenAPI 3.1 document the table is made of (the server's, so no $ref but schemas'). */
interface SchemaObject {
  $ref?: string;
  properties?: Record<string, unknown>;
  required?: string[];
  oneOf?: SchemaObject[];
  anyOf?: SchemaObject[];
}
interface OperationObject {
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  responses?: Record<string, unknown>;
  requestBody?: { content?: Record<string, { schema?: SchemaObject }> };
}
interface ApiDocument {
  tags?: { name: string; description?: string }[];
  security?: Record<string, string[]>[];
  paths?: Record<string, Partial<Record<(typeof METHODS)[number], OperationObject>>>;
  components?: { schemas?: Record<string, SchemaObject> };
}

/** A `|` would end the table cell, a newline the row. */
const cell = (text: string) => text.replace(/\s*\n\s*/g, ' ').replaceAll('|', '\\|');

function resolveSchema(document: ApiDocument, schema: SchemaObject | undefined): SchemaObject | undefined {
  if (!schema?.$ref) return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  return resolveSchema(document, document.components?.schemas?.[name]);
}

/** `{ license_key, hardware_id, device_name? }`: an object's top-level fields, optional ones marked. */
function fieldsOf(document: ApiDocument, reference: SchemaObject | undefined): string {
  const schema = resolveSchema(document, reference);
  const variants = schema?.oneOf ?? schema?.anyOf;
  // One of several shapes (e.g. a code from the app, or a recovery code): each of them.
  if (variants)
    return variants
      .map((variant) => fieldsOf(document, variant))
      .filter(Boolean)
      .join(' or ');
  const properties = Object.keys(schema?.properties ?? {});
  if (properties.length === 0) return '';
  const required = new Set(schema?.required ?? []);
  return `\`{ ${properties.map((name) => `${name}${required.has(name) ? '' : '?'}`).join(', ')} }\``;
}

/** The request body's fields, and its media type when it is not JSON. */
function bodyFields(document: ApiDocument, operation: OperationObject): string {
  const body = operation.requestBody;
  if (!body) return '';
  const [mediaType, content] = Object.entries(body.content ?? {})[0] ?? [];
  const fields = fieldsOf(document, content?.schema);
  if (!mediaType || mediaType === 'application/json') return fields;
  return fields ? `${fields} (${mediaType})` : mediaType;
}

/** Who may call: no key, the client's API key, or a signed-in session or API token as well. */
function caller(document: ApiDocument, operation: OperationObject): string {
  const requirements = operation.security ?? document.security ?? [];
  if (requirements.length === 0) return 'anyone';
  const schemes = requirements.map((requirement) => Object.keys(requirement).sort().join(' + '));
  if (schemes.some((scheme) => scheme.includes('bearerAuth'))) return 'signed in';
  if (schemes.includes('scimBearer')) return 'SCIM token';
  return schemes.includes('apiKey') ? 'API key' : schemes.join(' or ');
}

/** The Markdown of docs/api-routes.md for a served OpenAPI document. */
export async function apiReferenceMarkdown(served: OpenAPI3): Promise<string> {
  const document = served as ApiDocument;
  const tags = (document.tags ?? []).map((tag) => tag.name);
  const rows = new Map<string, string[]>(tags.map((tag) => [tag, []]));
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    // SCIM's routes are outside /api/v1 and shown with their whole path.
    const shown = path.startsWith(API_BASE_PATH)
      ? path.slice(API_BASE_PATH.length)
      : path.startsWith(SCIM_BASE_PATH)
        ? path
        : undefined;
    if (shown === undefined) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? 'other';
      if (!rows.has(tag)) rows.set(tag, []);
      const answers = Object.keys(operation.responses ?? {}).join(', ');
      rows
        .get(tag)
        ?.push(
          `| ${method.toUpperCase()} | \`${shown}\` | ${cell(operation.summary ?? '')} | ${caller(document, operation)} | ${bodyFields(document, operation)} | ${answers} |`,
        );
    }
  }
  const sections = [...rows]
    .filter(([, lines]) => lines.length > 0)
    .map(([tag, lines]) => {
      const description = document.tags?.find((entry) => entry.name === tag)?.description;
      return [
        `## ${tag}`,
        ...(description ? ['', cell(description)] : []),
        '',
        '| Method | Path | What it does | Who may call | Body | Answers |',
        '| --- | --- | --- | --- | --- | --- |',
        ...lines,
      ].join('\n');
    });
  const markdown = [
    '# API routes',
    '',
    '<!-- Made from the OpenAPI document by `npm run docs:api`; a test fails while it is stale. Do not edit. -->',
    '',
    `Every route under \`${API_BASE_PATH}\`, by tag, as the server declares it: the summary, who may call it`,
    '("API key": the `X-API-Key` header of a known client; "signed in": a bearer access token or API token as',
    "well), the top-level fields of a JSON body (`?`: optional) and the status codes it answers; and SCIM's",
    `routes under \`${SCIM_BASE_PATH}\` ("SCIM token": an organization's provisioning token, no API key). The full`,
    'schemas are in the served reference at `/api/docs`; how errors, license checks and leases work is in',
    '[api.md](api.md).',
    '',
    ...sections.flatMap((section) => [section, '']),
  ].join('\n');
  const options = await resolveConfig(API_REFERENCE_FILE);
  return format(markdown, { ...options, parser: 'markdown' });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await writeFile(API_REFERENCE_FILE, await apiReferenceMarkdown(await servedDocument()));
  console.log(`wrote ${API_REFERENCE_FILE}`);
}
