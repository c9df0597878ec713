import { type Filter, parse } from 'scim2-parse-filter';
import { scimBadRequest } from './errors.js';

/** One attribute a list may be filtered on, with the value it must equal. */
export interface Equality {
  attribute: string;
  value: string;
}

const unsupported = (filter: string) =>
  scimBadRequest(
    'invalidFilter',
    `The filter ${JSON.stringify(filter.slice(0, 200))} is not supported: use eq on ` +
      'userName, externalId, id, emails.value or displayName, joined with and',
  );

/**
 * Reads a SCIM filter (RFC 7644 §3.4.2.2) into equalities on the attributes identity providers
 * look people and groups up by: `userName eq "…"`, `externalId eq "…"`,
 * `emails[type eq "work"].value eq "…"`, `displayName eq "…"`, joined with `and`. Anything else
 * is 400 `invalidFilter`, never a list that silently ignores part of what was asked.
 */
export function readFilter(filter: string, attributes: readonly string[]): Equality[] {
  let tree: Filter;
  try {
    tree = parse(filter);
  } catch {
    throw scimBadRequest(
      'invalidFilter',
      `The filter ${JSON.stringify(filter.slice(0, 200))} is not valid SCIM filter syntax`,
    );
  }
  const equalities: Equality[] = [];
  const known = new Map(attributes.map((name) => [name.toLowerCase(), name]));
  const visit = (node: Filter): void => {
    if (node.op === 'and') {
      node.filters.forEach(visit);
      return;
    }
    // emails[type eq "work"]: this server keeps one (work) address, so the type selects it.
    if (node.op === '[]' && node.attrPath.toLowerCase() === 'emails' && known.has('emails.value')) {
      const inner = node.valFilter;
      if (inner.op === 'eq' && inner.attrPath.toLowerCase() === 'type' && typeof inner.compValue === 'string')
        return;
      if (
        inner.op === 'eq' &&
        inner.attrPath.toLowerCase() === 'value' &&
        typeof inner.compValue === 'string'
      ) {
        equalities.push({ attribute: 'emails.value', value: inner.compValue });
        return;
      }
      throw unsupported(filter);
    }
    if (node.op === 'eq' && typeof node.compValue === 'string') {
      // The parser may keep a schema's URN on the attribute: urn:…:User:userName.
      const path = node.attrPath.replace(/^urn:ietf:params:scim:schemas:core:2\.0:(User|Group):/i, '');
      const attribute = known.get(path.toLowerCase());
      if (attribute) {
        equalities.push({ attribute, value: node.compValue });
        return;
      }
    }
    throw unsupported(filter);
  };
  visit(tree);
  return equalities;
}
