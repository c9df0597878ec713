import { describe, expect, it } from 'vitest';
import { timeOrderedId } from '../../../src/server/platform/ids.js';

describe('timeOrderedId: ids in the order they were made, each one different', () => {
  it('10 000 ids (several draws of the random pool) are distinct, well formed and sorted as made', () => {
    const ids = Array.from({ length: 10_000 }, () => timeOrderedId());
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{12}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect([...ids].sort()).toEqual(ids);
    // The random parts differ too: not one pool slice handed out twice.
    expect(new Set(ids.map((id) => id.slice(18))).size).toBe(ids.length);
  });
});
