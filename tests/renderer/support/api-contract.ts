import { inject } from 'vitest';
import { z } from 'zod';
import { apiErrorSchema } from '../../../src/shared/api/errors';
import { API_BASE_PATH } from '../../../src/shared/routes';

/*
 * The fake API of the renderer tests answers with hand-written bodies. These checks keep them
 * honest: each answer must be one the real server could give, read from the server's own OpenAPI
 * document (built once per run by tests/support/api-document-setup.ts) and parsed with the shared
 * zod schema the server serialises that status with.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    /** The real server's OpenAPI document as JSON text, built once per run. */
    openApiDocument: string;
  }
}

interface OpenApiSchema {
  $ref?: string;
  anyOf?: OpenApiSchema[];
  [keyword: string]: unknown;
}
interface OpenApiResponse {
  content?: Record<string, { schema?: OpenApiSchema }>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, { responses?: Record<string, OpenApiResponse> }>>;
}

/**
 * What an operation sends with one status: a body of a shared schema, no JSON at all (a 204), or
 * anything (a file download, whose schema says only what it is).
 */
type ResponseBody = { schema: z.ZodType; name: string } | 'no JSON' | 'anything';

interface Operation {
  /** `GET /licenses/:id`, as the real server's router writes it. */
  name: string;
  method: string;
  pattern: RegExp;
  /** Orders templates like the server's router: a static segment wins over a parameter. */
  rank: string;
  responses: Map<number, ResponseBody>;
}

/** Every exported schema of src/shared/api by its OpenAPI component name. */
const sharedSchemas = new Map<string, z.ZodType>(
  Object.values(import.meta.glob<Record<string, unknown>>('../../../src/shared/api/*.ts', { eager: true }))
    .flatMap((module) => Object.values(module))
    .flatMap((value) => {
      const id = value instanceof z.ZodType ? z.globalRegistry.get(value)?.id : undefined;
      return id ? [[id, value as z.ZodType] as const] : [];
    }),
);

function sharedSchema(ref: string | undefined, operation: string): { schema: z.ZodType; name: string } {
  const name = ref?.replace('#/components/schemas/', '') ?? '';
  const schema = sharedSchemas.get(name);
  if (!schema)
    throw new Error(
      `${operation} answers with ${ref ?? 'an inline schema'}, which no schema of src/shared/api names`,
    );
  return { schema, name };
}

function responseBody(response: OpenApiResponse, operation: string): ResponseBody {
  const schema = response.content?.['application/json']?.schema;
  if (!schema) return 'no JSON';
  if (Object.keys(schema).every((keyword) => keyword === 'description')) return 'anything';
  if (!schema.anyOf) return sharedSchema(schema.$ref, operation);
  const options = schema.anyOf.map((option) => sharedSchema(option.$ref, operation));
  return {
    schema: z.union(options.map((option) => option.schema)),
    name: options.map((option) => option.name).join(' | '),
  };
}

function readOperations(): Operation[] {
  const document = JSON.parse(inject('openApiDocument')) as OpenApiDocument;
  return Object.entries(document.paths)
    .filter(([path]) => path.startsWith(`${API_BASE_PATH}/`))
    .flatMap(([documentPath, methods]) => {
      const segments = documentPath.slice(API_BASE_PATH.length).split('/');
      const isParameter = (segment: string) => segment.startsWith('{');
      const template = segments.map((segment) => segment.replace(/^\{(\w+)\}$/, ':$1')).join('/');
      const literal = (segment: string) => segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const pattern = new RegExp(
        `^${segments.map((segment) => (isParameter(segment) ? '[^/]+' : literal(segment))).join('/')}$`,
      );
      const rank = segments.map((segment) => (isParameter(segment) ? '1' : '0')).join('');
      return Object.entries(methods).map(([method, { responses = {} }]) => {
        const name = `${method.toUpperCase()} ${template}`;
        return {
          name,
          method: method.toUpperCase(),
          pattern,
          rank,
          responses: new Map(
            Object.entries(responses).map(([status, response]) => [
              Number(status),
              responseBody(response, name),
            ]),
          ),
        };
      });
    });
}

const operations = readOperations();

/** The operation of the real server that answers `method path` (path below /api/v1), if any. */
export function apiOperation(method: string, path: string): Operation | undefined {
  return operations
    .filter((operation) => operation.method === method && operation.pattern.test(path))
    .sort((a, b) => a.rank.localeCompare(b.rank))[0];
}

/** Throws unless a route such as `GET /licenses/L1` is a call the real server answers. */
export function assertApiOperation(route: string): void {
  const [method = '', path = ''] = route.split(' ');
  if (!apiOperation(method, path))
    throw new Error(
      `The fake API cannot answer ${route}: the real server has no such operation (it is not in its OpenAPI document)`,
    );
}

/** Fields of a sent body that the schema does not have; the real server's serialiser drops them. */
function fieldsNotInSchema(sent: unknown, parsed: unknown, at = ''): string[] {
  const where = (key: string | number) => (at ? `${at}.${key}` : String(key));
  if (Array.isArray(sent) && Array.isArray(parsed))
    return sent.flatMap((item, index) => fieldsNotInSchema(item, parsed[index], where(index)));
  if (!sent || !parsed || typeof sent !== 'object' || typeof parsed !== 'object') return [];
  return Object.entries(sent).flatMap(([key, value]) =>
    key in parsed
      ? fieldsNotInSchema(value, (parsed as Record<string, unknown>)[key], where(key))
      : [where(key)],
  );
}

/**
 * Why an answer of the fake API is not one the real server gives to `method path`, or undefined
 * when it is. `json` is the body as sent on the wire, undefined when the answer is not JSON.
 */
export function contractBreak(
  method: string,
  path: string,
  status: number,
  json: unknown,
): string | undefined {
  const operation = apiOperation(method, path);
  const call = `${method} ${path} answered ${status}`;
  if (!operation) return `${call}, but the real server has no operation ${method} ${path}`;
  const declared = operation.responses.get(status);
  // Whatever the route, the server's error handler answers an error status with the error body.
  const body = declared ?? (status >= 400 ? { schema: apiErrorSchema, name: 'ApiError' } : undefined);
  if (!body)
    return `${call}, a status ${operation.name} never answers (it answers ${[...operation.responses.keys()].join(', ')})`;
  if (body === 'anything') return undefined;
  if (body === 'no JSON')
    return json === undefined ? undefined : `${call} with JSON, where ${operation.name} sends no JSON body`;
  if (json === undefined) return `${call} without a JSON body, where ${operation.name} sends ${body.name}`;
  const parsed = body.schema.safeParse(json);
  if (!parsed.success)
    return `${call} with a body that is not ${body.name} (${operation.name}):\n${z.prettifyError(parsed.error)}`;
  const extra = fieldsNotInSchema(json, parsed.data);
  if (extra.length > 0)
    return `${call} with fields ${body.name} does not have (${operation.name}), which the real server never sends: ${extra.join(', ')}`;
  return undefined;
}

let breaks: string[] = [];

/** Notes an answer that broke the contract, for the test that caused it to fail on. */
export function recordContractBreak(description: string): void {
  breaks.push(description);
}

/** The contract breaks so far, forgotten once returned: for a test that breaks an answer on purpose. */
export function takeContractBreaks(): string[] {
  const taken = breaks;
  breaks = [];
  return taken;
}

/** Called after each renderer test: fails it when the fake API gave an answer the real server would not. */
export function checkNoContractBreaks(): void {
  const found = takeContractBreaks();
  if (found.length > 0)
    throw new Error(
      `The fake API answered what the real server never would; fix the fake answer (or the schema, if the ` +
        `server is wrong):\n- ${found.join('\n- ')}`,
    );
}
