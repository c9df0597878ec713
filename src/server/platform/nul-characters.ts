import { badRequest } from './http-error.js';

/**
 * Where in parsed request input the first NUL character is (`full_name`, `items.2.name`, or
 * `body` for the input itself), if anywhere. Walked without recursion: the input may nest deeply.
 */
export function findNulCharacter(input: unknown, rootName = 'body'): string | undefined {
  const pending: { value: unknown; path: string }[] = [{ value: input, path: '' }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path || rootName;
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value);
      if (entries.some(([key]) => key.includes('\u0000'))) return path || rootName;
      // Reversed onto the stack, so the first NUL in reading order is the one reported.
      for (const [key, child] of entries.reverse())
        pending.push({ value: child, path: path ? `${path}.${key}` : key });
    }
  }
  return undefined;
}

/**
 * PostgreSQL cannot store a NUL character in text, SQLite can: input holding one is refused
 * before anything is written, so both engines answer alike.
 */
export function refuseNulCharacters(input: unknown, rootName?: string): void {
  const where = findNulCharacter(input, rootName);
  if (where !== undefined)
    throw badRequest('invalid_characters', `${where}: the NUL character (\\u0000) is not allowed`);
}
