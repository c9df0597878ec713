import { isAxiosError } from 'axios';
import { apiErrorSchema } from '../../../shared/api/errors';

/** A failed API call as pages show it: the words to display plus what forms need to mark fields. */
export class ApiRequestError extends Error {
  readonly status: number | undefined;
  readonly code: string | undefined;
  /** Per-field problems from the server's `errors[]` (`field` → message). */
  readonly fieldErrors: Record<string, string>;

  constructor(
    message: string,
    options: { status?: number; code?: string; fieldErrors?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'ApiRequestError';
    this.status = options.status;
    this.code = options.code;
    this.fieldErrors = options.fieldErrors ?? {};
  }
}

/** The error body the server sent, when there is one (DESIGN §3: `{ detail, message, code, errors? }`). */
export function errorBody(error: unknown): Partial<{
  detail: string;
  message: string;
  code: string;
  errors: { field: string; message: string }[];
}> {
  if (!isAxiosError(error) || error.response?.data === undefined) return {};
  const parsed = apiErrorSchema.partial().safeParse(error.response.data);
  return parsed.success ? parsed.data : {};
}

/** SPEC §8: the server's message is preferred, else the fallback. */
export function serverMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiRequestError) return error.message;
  const body = errorBody(error);
  return body.message || body.detail || fallback;
}

/** SPEC §8 base activation: the server's detail is preferred over its message. */
export function serverDetail(error: unknown, fallback: string): string {
  if (error instanceof ApiRequestError) return error.message;
  const body = errorBody(error);
  return body.detail || body.message || fallback;
}

/** SPEC §8 admin calls: the server's message, else the error's own message, else the fallback. */
export function adminMessage(error: unknown, fallback: string): string {
  const body = errorBody(error);
  if (body.message || body.detail) return (body.message || body.detail) as string;
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

/** Turns any failure of a call into an {@link ApiRequestError} with the SPEC §8 message rules. */
export function toApiRequestError(
  error: unknown,
  fallback: string,
  pickMessage: (error: unknown, fallback: string) => string = serverMessage,
): ApiRequestError {
  if (error instanceof ApiRequestError) return error;
  const body = errorBody(error);
  const fieldErrors: Record<string, string> = {};
  for (const issue of body.errors ?? []) fieldErrors[issue.field] ??= issue.message;
  return new ApiRequestError(pickMessage(error, fallback), {
    status: isAxiosError(error) ? error.response?.status : undefined,
    code: body.code,
    fieldErrors,
    cause: error,
  });
}
