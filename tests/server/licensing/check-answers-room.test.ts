import { describe, expect, it } from 'vitest';
import {
  createCheckAnswers,
  ENTRY_OVERHEAD_BYTES,
  type KeptAnswer,
} from '../../../src/server/licensing/licenses/check-answers.js';

const HOUR_MS = 3_600_000;

/** An answer made at `madeAtMs` whose lease is due for renewal an hour later. */
const answerOf = (name: string, madeAtMs: number): KeptAnswer => ({
  stateDigest: 'state',
  text: `{"lease":"lease-${name}"}`,
  featuresAt: 1,
  leaseAt: 10,
  leaseLength: `lease-${name}`.length,
  renewAtMs: madeAtMs + HOUR_MS,
});

/** Room for this many entries, bounded only by their number. */
const entries = (maxEntries: number) => ({ maxEntries, maxBytes: Number.MAX_SAFE_INTEGER });

describe('kept license-check answers: a full store keeps what it has until it is due', () => {
  it('a new machine is not kept while every kept answer is fresh; the kept ones go on being found', () => {
    const answers = createCheckAnswers(entries(2));
    answers.set('license', 'a', answerOf('a', 0), 0);
    answers.set('license', 'b', answerOf('b', 0), 0);
    answers.set('license', 'c', answerOf('c', 0), 1_000);
    expect(answers.size).toBe(2);
    expect(answers.get('license', 'c', 'state', 2_000)).toBeUndefined();
    expect(answers.get('license', 'a', 'state', 2_000)?.text).toContain('lease-a');
    expect(answers.get('license', 'b', 'state', 2_000)?.text).toContain('lease-b');
  });

  it('machines checking in turn, three times as many as there is room for: a third of the checks find their answer', () => {
    const answers = createCheckAnswers(entries(100));
    let hits = 0;
    let checks = 0;
    for (let round = 0; round < 5; round += 1)
      for (let machine = 0; machine < 300; machine += 1) {
        const now = round * 60_000 + machine;
        checks += 1;
        if (answers.get('license', `m${machine}`, 'state', now)) hits += 1;
        else answers.set('license', `m${machine}`, answerOf(`m${machine}`, now), now);
      }
    // The first round finds nothing; each of the next four finds the hundred kept ones.
    expect(hits).toBe(400);
    expect(checks).toBe(1_500);
    expect(answers.size).toBe(100);
  });

  it('once the least recently checked answer is due for renewal, a new machine takes its place', () => {
    const answers = createCheckAnswers(entries(2));
    answers.set('license', 'a', answerOf('a', 0), 0);
    answers.set('license', 'b', answerOf('b', 30 * 60_000), 30 * 60_000);
    // a is the least recently checked and due an hour after it was made.
    answers.set('license', 'c', answerOf('c', HOUR_MS), HOUR_MS);
    expect(answers.get('license', 'a', 'state', HOUR_MS)).toBeUndefined();
    expect(answers.get('license', 'c', 'state', HOUR_MS)?.text).toContain('lease-c');
    expect(answers.get('license', 'b', 'state', HOUR_MS)?.text).toContain('lease-b');
  });

  it('a machine’s new answer always replaces its own, full or not; none are kept with room for none', () => {
    const answers = createCheckAnswers(entries(1));
    answers.set('license', 'a', answerOf('a', 0), 0);
    answers.set('license', 'a', { ...answerOf('a', 0), text: 'renewed' }, 10);
    expect(answers.get('license', 'a', 'state', 20)?.text).toBe('renewed');
    const none = createCheckAnswers(entries(0));
    none.set('license', 'a', answerOf('a', 0), 0);
    expect(none.size).toBe(0);
  });

  it('a byte budget bounds the store as the entry count does: due answers make room, fresh ones stay', () => {
    const one = ENTRY_OVERHEAD_BYTES + 100;
    const answers = createCheckAnswers({ maxEntries: 100, maxBytes: 2 * one });
    answers.set('license', 'a', answerOf('a', 0), 0);
    answers.set('license', 'b', answerOf('b', 0), 0);
    expect(answers.size).toBe(2);
    expect(answers.bytes).toBeLessThanOrEqual(2 * one);
    // No room for a third while both are fresh.
    answers.set('license', 'c', answerOf('c', 1_000), 1_000);
    expect(answers.get('license', 'c', 'state', 2_000)).toBeUndefined();
    // An answer nearly twice as long needs both places: once they are due, it takes them.
    const long = { ...answerOf('d', HOUR_MS), text: 'x'.repeat(one) };
    answers.set('license', 'd', long, HOUR_MS);
    expect(answers.size).toBe(1);
    expect(answers.get('license', 'd', 'state', HOUR_MS)?.text).toBe(long.text);
    // One larger than the whole budget is never kept, and pushes nothing out.
    answers.set('license', 'e', { ...answerOf('e', HOUR_MS), text: 'x'.repeat(3 * one) }, 3 * HOUR_MS);
    expect(answers.size).toBe(1);
  });

  it('replacing a machine’s answer counts its bytes once', () => {
    const answers = createCheckAnswers(entries(10));
    answers.set('license', 'a', answerOf('a', 0), 0);
    const once = answers.bytes;
    answers.set('license', 'a', answerOf('a', 10), 10);
    expect(answers.bytes).toBe(once);
    expect(answers.size).toBe(1);
  });
});
