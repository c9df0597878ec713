import type { AxiosError } from 'axios';
import type { ApiError } from '../../../shared/api/errors';
import { GENERIC_FALLBACK, unreachableMessages } from '../../../shared/messages';
import { knownText } from './i18n/portal-i18n';
import { isUnreachable } from './server-reachability';

/** The code of a failure that never reached the server (see `isUnreachable`). */
export const UNREACHABLE_CODE = 'server_unreachable';

/**
 * A failure the client raises itself, without an axios error to read (a refresh with no token, a
 * plain `fetch` that failed): the words to display, and the status and code when the server sent them.
 */
export class ApiRequestError extends Error {
  readonly status: number | undefined;
  readonly code: string | undefined;

  constructor(message: string, options: { status?: number; code?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'ApiRequestError';
    this.status = options.status;
    this.code = options.code;
  }
}

/**
 * axios's own `isAxiosError`, written here: importing it would put all of axios in the first
 * download, and axios is only loaded on the first API call.
 */
export const isHttpError = (error: unknown): error is AxiosError =>
  typeof error === 'object' && error !== null && (error as { isAxiosError?: unknown }).isAxiosError === true;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isFieldIssue = (value: unknown): value is { field: string; message: string } =>
  isRecord(value) && typeof value['field'] === 'string' && typeof value['message'] === 'string';

/**
 * The error body the server sent, when there is one (`{ detail, message, code, errors? }`).
 * The server writes it through the shared `apiErrorSchema`, so this only checks what it reads: a
 * body that is not that shape at all (a proxy's HTML page, a string) counts as no body.
 */
export function errorBody(error: unknown): Partial<ApiError> {
  if (!isHttpError(error)) return {};
  const data: unknown = error.response?.data;
  if (!isRecord(data)) return {};
  const { detail, message, code, errors } = data;
  if (detail !== undefined && typeof detail !== 'string') return {};
  if (message !== undefined && typeof message !== 'string') return {};
  if (code !== undefined && typeof code !== 'string') return {};
  if (errors !== undefined && !(Array.isArray(errors) && errors.every(isFieldIssue))) return {};
  const body: Partial<ApiError> = {};
  if (detail !== undefined) body.detail = detail;
  if (message !== undefined) body.message = message;
  if (code !== undefined) body.code = code;
  if (errors !== undefined) body.errors = errors.map(({ field, message }) => ({ field, message }));
  return body;
}

/** The server's message is preferred, else the fallback; with no server, that it cannot be reached. */
export function serverMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiRequestError) return error.message;
  if (isUnreachable(error)) return unreachableMessages.message;
  const body = errorBody(error);
  return body.message || body.detail || fallback;
}

/** Base activation: the server's detail is preferred over its message. */
export function serverDetail(error: unknown, fallback: string): string {
  if (error instanceof ApiRequestError) return error.message;
  if (isUnreachable(error)) return unreachableMessages.message;
  const body = errorBody(error);
  return body.detail || body.message || fallback;
}

/**
 * Admin calls: the server's message, else the error's own message, else the fallback; with no
 * server, that it cannot be reached (never axios's bare "Network Error").
 */
export function adminMessage(error: unknown, fallback: string): string {
  if (isUnreachable(error)) return unreachableMessages.message;
  const body = errorBody(error);
  if (body.message || body.detail) return (body.message || body.detail) as string;
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

/**
 * A failed call as the store keeps it (plain data, so it can live in state): the message to show
 * (the server's, else the endpoint's fallback) and what forms need to mark fields.
 */
export interface ApiFailure {
  message: string;
  status?: number;
  code?: string;
  /** Per-field problems from the server's `errors[]` (`field` → message). */
  fieldErrors: Record<string, string>;
}

/** How an endpoint words its failures: its fallback message and which server field it prefers. */
export interface ApiCallOptions {
  fallback?: string;
  pickMessage?: (error: unknown, fallback: string) => string;
}

/** Any failure of a call as plain data, with the message rules of the endpoint. */
export function toApiFailure(error: unknown, options: ApiCallOptions = {}): ApiFailure {
  const { fallback = GENERIC_FALLBACK, pickMessage = serverMessage } = options;
  const body = errorBody(error);
  const fieldErrors: Record<string, string> = {};
  for (const issue of body.errors ?? []) fieldErrors[issue.field] ??= issue.message;
  const failure: ApiFailure = { message: pickMessage(error, fallback), fieldErrors };
  const status = isHttpError(error) ? error.response?.status : undefined;
  if (status !== undefined) failure.status = status;
  if (body.code !== undefined) failure.code = body.code;
  else if (isUnreachable(error)) failure.code = UNREACHABLE_CODE;
  return failure;
}

/** A rejected endpoint's error, when it is one of ours (`unwrap()` throws it, hooks hold it). */
export const isApiFailure = (value: unknown): value is ApiFailure =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as ApiFailure).message === 'string' &&
  typeof (value as ApiFailure).fieldErrors === 'object';

/**
 * The message of any failure: an endpoint's, an Error's, else the fallback; in the language shown
 * when it is one of SPEC's or the server's messages the portal knows (`knownText`), else as sent.
 */
export function failureMessage(error: unknown, fallback: string): string {
  if (isApiFailure(error)) return knownText(error.message);
  if (error instanceof Error && error.message) return knownText(error.message);
  return knownText(fallback);
}

/**
 * Runs an endpoint's own work (a call plus what the platform keeps, or a check of the answer's
 * shape) and turns a failure into the endpoint's {@link ApiFailure}: the `queryFn` counterpart of
 * the base query below.
 */
export async function attempt<T>(
  run: () => Promise<T>,
  options: ApiCallOptions,
): Promise<{ data: T } | { error: ApiFailure }> {
  try {
    return { data: await run() };
  } catch (error) {
    return { error: toApiFailure(error, options) };
  }
}
