import { SCIM_SCHEMAS, type ScimGroup, type ScimUser } from '../../../shared/api/scim.js';
import { SCIM_BASE_PATH } from '../../../shared/routes.js';
import type { ScimGroupRow, ScimUserRow } from '../../platform/db/tables-scim.js';
import { scimBadRequest } from './errors.js';

// SCIM resources as this server answers them, and what a client sends read into fields: as loosely
// as Entra ID and Okta send them (booleans as "False", ops as "Replace", unknown attributes ignored)
// and strictly where a value would be wrong (no address, a userName that is not text).

const MAX_TEXT = 256;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface UserFields {
  userName: string;
  externalId: string | null;
  email: string;
  displayName: string | null;
  givenName: string | null;
  familyName: string | null;
  active: boolean;
}

export interface GroupFields {
  displayName: string;
  externalId: string | null;
  /** The members' SCIM ids, or undefined when the request does not set them. */
  members: string[] | undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function text(value: unknown, attribute: string, { required = false } = {}): string | null {
  if (value === undefined || value === null || value === '') {
    if (required) throw scimBadRequest('invalidValue', `${attribute} is required`);
    return null;
  }
  if (typeof value !== 'string') throw scimBadRequest('invalidValue', `${attribute} must be a string`);
  const trimmed = value.trim();
  if (trimmed.length > MAX_TEXT)
    throw scimBadRequest('invalidValue', `${attribute} must be at most ${MAX_TEXT} characters`);
  if (required && trimmed === '') throw scimBadRequest('invalidValue', `${attribute} is required`);
  return trimmed === '' ? null : trimmed;
}

/** SCIM booleans as clients send them: true/false, or Entra ID's "True"/"False" strings. */
function bool(value: unknown, attribute: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim()))
    return value.trim().toLowerCase() === 'true';
  throw scimBadRequest('invalidValue', `${attribute} must be true or false`);
}

function address(value: unknown): string {
  const email = text(value, 'emails.value', { required: true }) ?? '';
  if (!EMAIL.test(email))
    throw scimBadRequest('invalidValue', `${email.slice(0, 80)} is not an e-mail address`);
  return email.toLowerCase();
}

/** The work (or primary, or first) address of an `emails` list; undefined when it holds none. */
function emailOf(emails: unknown): string | undefined {
  if (emails === undefined || emails === null) return undefined;
  if (!Array.isArray(emails)) throw scimBadRequest('invalidValue', 'emails must be a list');
  const entries = emails.filter(isRecord);
  const chosen =
    entries.find((entry) => entry.primary === true || entry.primary === 'True' || entry.primary === 'true') ??
    entries.find((entry) => entry.type === 'work') ??
    entries[0];
  return chosen ? address(chosen.value) : undefined;
}

/** A whole User as POST and PUT send it. */
export function readUser(body: unknown): UserFields {
  if (!isRecord(body)) throw scimBadRequest('invalidSyntax', 'The body must be a SCIM User object');
  const userName = text(body.userName, 'userName', { required: true }) ?? '';
  const email = emailOf(body.emails) ?? (EMAIL.test(userName) ? userName.toLowerCase() : undefined);
  if (!email)
    throw scimBadRequest(
      'invalidValue',
      'A user needs an e-mail address: in emails, or as a userName that is one',
    );
  const name = isRecord(body.name) ? body.name : {};
  return {
    userName,
    externalId: text(body.externalId, 'externalId'),
    email,
    displayName: text(body.displayName, 'displayName'),
    givenName: text(name.givenName, 'name.givenName'),
    familyName: text(name.familyName, 'name.familyName'),
    active: body.active === undefined ? true : bool(body.active, 'active'),
  };
}

interface PatchOperation {
  op: 'add' | 'replace' | 'remove';
  path: string | undefined;
  value: unknown;
}

const MAX_OPERATIONS = 1000;

/** The Operations of a PatchOp, each with a known op ("Replace" as Entra ID sends it is "replace"). */
export function readPatch(body: unknown): PatchOperation[] {
  if (!isRecord(body)) throw scimBadRequest('invalidSyntax', 'The body must be a SCIM PatchOp object');
  const operations = body.Operations ?? body.operations;
  if (!Array.isArray(operations) || operations.length === 0)
    throw scimBadRequest('invalidSyntax', 'A PatchOp needs a non-empty Operations list');
  if (operations.length > MAX_OPERATIONS)
    throw scimBadRequest('tooMany', `A PatchOp may hold at most ${MAX_OPERATIONS} operations`);
  return operations.map((operation) => {
    if (!isRecord(operation)) throw scimBadRequest('invalidSyntax', 'Each operation must be an object');
    const op = typeof operation.op === 'string' ? operation.op.toLowerCase() : '';
    if (op !== 'add' && op !== 'replace' && op !== 'remove')
      throw scimBadRequest(
        'invalidSyntax',
        `op must be add, replace or remove, not ${JSON.stringify(operation.op)}`,
      );
    if (operation.path !== undefined && typeof operation.path !== 'string')
      throw scimBadRequest('invalidPath', 'path must be a string');
    const path = operation.path?.trim() || undefined;
    if (op === 'remove' && path === undefined) throw scimBadRequest('noTarget', 'A remove needs a path');
    return { op, path, value: operation.value };
  });
}

const stripUrn = (path: string) =>
  path.replace(/^urn:ietf:params:scim:schemas:core:2\.0:(User|Group):/i, '').trim();

/** Applies one attribute's change to a user; unknown attributes (title, addresses…) are ignored. */
function setUserAttribute(fields: UserFields, rawPath: string, op: PatchOperation['op'], value: unknown) {
  const path = stripUrn(rawPath).toLowerCase();
  const removing = op === 'remove';
  switch (path) {
    case 'active':
      if (removing) throw scimBadRequest('mutability', 'active cannot be removed');
      fields.active = bool(value, 'active');
      return;
    case 'username':
      if (removing) throw scimBadRequest('mutability', 'userName cannot be removed');
      fields.userName = text(value, 'userName', { required: true }) ?? fields.userName;
      return;
    case 'externalid':
      fields.externalId = removing ? null : text(value, 'externalId');
      return;
    case 'displayname':
      fields.displayName = removing ? null : text(value, 'displayName');
      return;
    case 'name.givenname':
      fields.givenName = removing ? null : text(value, 'name.givenName');
      return;
    case 'name.familyname':
      fields.familyName = removing ? null : text(value, 'name.familyName');
      return;
    case 'name':
      if (removing) {
        fields.givenName = null;
        fields.familyName = null;
      } else if (isRecord(value)) {
        if ('givenName' in value) fields.givenName = text(value.givenName, 'name.givenName');
        if ('familyName' in value) fields.familyName = text(value.familyName, 'name.familyName');
      } else throw scimBadRequest('invalidValue', 'name must be an object');
      return;
    case 'emails':
    case 'emails[type eq "work"].value':
    case 'emails[primary eq true].value':
    case 'emails.value': {
      if (removing) throw scimBadRequest('mutability', 'A provisioned user keeps an e-mail address');
      const email = path === 'emails' ? emailOf(value) : address(value);
      if (email) fields.email = email;
      return;
    }
    default:
      // Attributes this server does not keep (title, addresses, the enterprise extension…).
      return;
  }
}

/** A user after a PatchOp's operations, in order. */
export function patchUser(current: UserFields, operations: PatchOperation[]): UserFields {
  const fields = { ...current };
  for (const { op, path, value } of operations) {
    if (path !== undefined) {
      setUserAttribute(fields, path, op, value);
      continue;
    }
    if (!isRecord(value))
      throw scimBadRequest('invalidValue', 'An operation without a path needs an object value');
    for (const [key, attributeValue] of Object.entries(value))
      setUserAttribute(fields, key, op, attributeValue);
  }
  return fields;
}

function memberIds(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((member) => {
    if (!isRecord(member) || typeof member.value !== 'string' || member.value === '')
      throw scimBadRequest('invalidValue', 'Each member needs a value: the user’s id');
    return member.value;
  });
}

/** A whole Group as POST and PUT send it. */
export function readGroup(body: unknown): GroupFields {
  if (!isRecord(body)) throw scimBadRequest('invalidSyntax', 'The body must be a SCIM Group object');
  return {
    displayName: text(body.displayName, 'displayName', { required: true }) ?? '',
    externalId: text(body.externalId, 'externalId'),
    members: body.members === undefined || body.members === null ? undefined : memberIds(body.members),
  };
}

/** What a PatchOp does to a group: its new name and the members added and removed. */
export interface GroupPatch {
  displayName?: string;
  externalId?: string | null;
  add: string[];
  remove: string[];
  /** Every member replaced by `add` (a replace of members, or a remove of all). */
  replaceMembers: boolean;
}

const MEMBER_FILTER = /^members\[\s*value\s+eq\s+"([^"]+)"\s*\]$/i;

export function patchGroup(operations: PatchOperation[]): GroupPatch {
  const patch: GroupPatch = { add: [], remove: [], replaceMembers: false };
  const apply = (op: PatchOperation['op'], rawPath: string, value: unknown) => {
    const path = stripUrn(rawPath);
    const one = MEMBER_FILTER.exec(path);
    if (one?.[1]) {
      if (op !== 'remove') throw scimBadRequest('invalidPath', 'A member filter path only removes');
      patch.remove.push(one[1]);
      return;
    }
    switch (path.toLowerCase()) {
      case 'displayname':
        if (op === 'remove') throw scimBadRequest('mutability', 'displayName cannot be removed');
        patch.displayName = text(value, 'displayName', { required: true }) ?? '';
        return;
      case 'externalid':
        patch.externalId = op === 'remove' ? null : text(value, 'externalId');
        return;
      case 'members':
        if (op === 'add') patch.add.push(...memberIds(value));
        else if (op === 'replace') {
          patch.replaceMembers = true;
          patch.add = memberIds(value ?? []);
          patch.remove = [];
        } else if (value === undefined) {
          patch.replaceMembers = true;
          patch.add = [];
        } else patch.remove.push(...memberIds(value));
        return;
      case 'id':
        return;
      default:
        throw scimBadRequest('invalidPath', `${path.slice(0, 80)} is not an attribute of a Group`);
    }
  };
  for (const { op, path, value } of operations) {
    if (path !== undefined) {
      apply(op, path, value);
      continue;
    }
    if (!isRecord(value))
      throw scimBadRequest('invalidValue', 'An operation without a path needs an object value');
    for (const [key, attributeValue] of Object.entries(value)) apply(op, key, attributeValue);
  }
  return patch;
}

const location = (publicUrl: string, kind: 'Users' | 'Groups', id: string) =>
  `${publicUrl}${SCIM_BASE_PATH}/${kind}/${id}`;

export const userFieldsOf = (row: ScimUserRow): UserFields => ({
  userName: row.user_name,
  externalId: row.external_id,
  email: row.email,
  displayName: row.display_name,
  givenName: row.given_name,
  familyName: row.family_name,
  active: row.active === 1,
});

export function toScimUser(
  row: ScimUserRow,
  groups: { id: string; display_name: string }[] | undefined,
  publicUrl: string,
): ScimUser {
  const name = {
    ...(row.given_name ? { givenName: row.given_name } : {}),
    ...(row.family_name ? { familyName: row.family_name } : {}),
  };
  return {
    schemas: [SCIM_SCHEMAS.user],
    id: row.id,
    ...(row.external_id ? { externalId: row.external_id } : {}),
    userName: row.user_name,
    active: row.active === 1,
    ...(row.display_name ? { displayName: row.display_name } : {}),
    ...(Object.keys(name).length > 0 ? { name } : {}),
    emails: [{ value: row.email, type: 'work', primary: true }],
    ...(groups ? { groups: groups.map((group) => ({ value: group.id, display: group.display_name })) } : {}),
    meta: {
      resourceType: 'User',
      created: row.created_at,
      lastModified: row.updated_at,
      location: location(publicUrl, 'Users', row.id),
    },
  };
}

export function toScimGroup(
  row: ScimGroupRow,
  members: { id: string; user_name: string }[] | undefined,
  publicUrl: string,
): ScimGroup {
  return {
    schemas: [SCIM_SCHEMAS.group],
    id: row.id,
    ...(row.external_id ? { externalId: row.external_id } : {}),
    displayName: row.display_name,
    ...(members
      ? { members: members.map((member) => ({ value: member.id, display: member.user_name })) }
      : {}),
    meta: {
      resourceType: 'Group',
      created: row.created_at,
      lastModified: row.updated_at,
      location: location(publicUrl, 'Groups', row.id),
    },
  };
}

/** startIndex and count as RFC 7644 §3.4.2.4 reads them: 1-based, a count below 0 is 0, capped. */
export function readPaging(
  query: { startIndex?: string | undefined; count?: string | undefined },
  max: number,
): { startIndex: number; count: number } {
  const number = (value: string | undefined, name: string, fallback: number) => {
    if (value === undefined || value === '') return fallback;
    if (!/^-?\d+$/.test(value)) throw scimBadRequest('invalidValue', `${name} must be an integer`);
    return Number(value);
  };
  const startIndex = Math.max(1, number(query.startIndex, 'startIndex', 1));
  const count = Math.min(max, Math.max(0, number(query.count, 'count', 100)));
  return { startIndex, count };
}
