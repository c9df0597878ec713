/** An error that becomes a `{ detail, message, code }` answer with its status, never a stack trace. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    /** Fields added to the error body, e.g. the `valid`/`status` of a refused license check. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (code: string, message: string) => new HttpError(400, code, message);
export const unauthorized = (code: string, message: string) => new HttpError(401, code, message);
export const forbidden = (code: string, message: string) => new HttpError(403, code, message);
export const notFound = (code: string, message: string) => new HttpError(404, code, message);
export const conflict = (code: string, message: string) => new HttpError(409, code, message);
/** A call with no session, or whose session has ended: the one 401 every guard answers. */
export const notAuthenticated = () => unauthorized('not_authenticated', 'Not authenticated');
