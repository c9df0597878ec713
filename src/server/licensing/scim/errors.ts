import { SCIM_SCHEMAS } from '../../../shared/api/scim.js';
import { HttpError } from '../../platform/http-error.js';

/** RFC 7644 §3.12's `scimType`s this server answers with. */
export type ScimType =
  | 'invalidFilter'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'invalidValue'
  | 'noTarget'
  | 'uniqueness'
  | 'mutability'
  | 'tooMany';

/** The SCIM error body's own fields, beside the `{ detail, message, code }` every error carries. */
export const scimErrorFields = (status: number, scimType?: string) => ({
  schemas: [SCIM_SCHEMAS.error],
  status: String(status),
  ...(scimType ? { scimType } : {}),
});

/** An error a SCIM client reads: its `scimType` and status string in the SCIM error schema. */
export const scimError = (status: number, code: string, message: string, scimType?: ScimType): HttpError =>
  new HttpError(status, code, message, {}, scimErrorFields(status, scimType));

export const scimBadRequest = (scimType: ScimType, message: string) =>
  scimError(400, `scim_${scimType.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`, message, scimType);

export const scimNotFound = (what: 'User' | 'Group' | 'Resource', id: string) =>
  scimError(404, 'scim_not_found', `${what} ${id.slice(0, 80)} not found`);

export const scimUniqueness = (message: string) => scimError(409, 'scim_uniqueness', message, 'uniqueness');
