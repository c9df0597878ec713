import { describe, expect, it } from 'vitest';
import {
  answerBytes,
  createCheckAnswers,
  type KeptAnswer,
} from '../../../src/server/licensing/licenses/check-answers.js';

const HOUR_MS = 3_600_000;

/** An answer made at `madeAtMs` whose lease is due for renewal an hour later. */
const answerOf = (name: string, madeAtMs: number): KeptAnswer => ({
  state: 'state',
  body: answerBytes(JSON.stringify({ name })),
  lease: `lease-${name}`,
  renewAtMs: madeAtMs + HOUR_MS,
});

describe('kept license-check answers: a full store keeps what it has until it is due', () => {
  it('a new machine is not kept while every kept answer is fresh; the kept ones go on being found', () => {
    const answers = createCheckAnswers(2);
    answers.set('license', 'a', answerOf('a', 0), 0);
    answers.set('license', 'b', answerOf('b', 0), 0);
    answers.set('license', 'c', answerOf('c', 0), 1_000);
    expect(answers.size).toBe(2);
    expect(answers.get('license', 'c', 'state', 2_000)).toBeUndefined();
    expect(answers.get('license', 'a', 'state', 2_000)?.lease).toBe('lease-a');
    expect(answers.get('license', 'b', 'state', 2_000)?.lease).toBe('lease-b');
  });

  it('machines checking in turn, three times as many as there is room for: a third of the checks find their answer', () => {
    const answers = createCheckAnswers(100);
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
    const answers = createCheckAnswers(2);
    answers.set('license', 'a', answerOf('a', 0), 0);
    answers.set('license', 'b', answerOf('b', 30 * 60_000), 30 * 60_000);
    // a is the least recently checked and due an hour after it was made.
    answers.set('license', 'c', answerOf('c', HOUR_MS), HOUR_MS);
    expect(answers.get('license', 'a', 'state', HOUR_MS)).toBeUndefined();
    expect(answers.get('license', 'c', 'state', HOUR_MS)?.lease).toBe('lease-c');
    expect(answers.get('license', 'b', 'state', HOUR_MS)?.lease).toBe('lease-b');
  });

  it('a machine’s new answer always replaces its own, full or not; none are kept with room for none', () => {
    const answers = createCheckAnswers(1);
    answers.set('license', 'a', answerOf('a', 0), 0);
    answers.set('license', 'a', { ...answerOf('a', 0), lease: 'renewed' }, 10);
    expect(answers.get('license', 'a', 'state', 20)?.lease).toBe('renewed');
    const none = createCheckAnswers(0);
    none.set('license', 'a', answerOf('a', 0), 0);
    expect(none.size).toBe(0);
  });

  it('an answer’s bytes are its own memory, not a slice of a shared slab', () => {
    const bytes = answerBytes(JSON.stringify({ lease: 'x'.repeat(3_000) }));
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(bytes.length);
    expect(JSON.parse(bytes.toString()).lease).toHaveLength(3_000);
    // What Buffer.from would have made for the same text shares a larger slab.
    expect(Buffer.from(JSON.stringify({ lease: 'x'.repeat(3_000) })).buffer.byteLength).toBeGreaterThan(
      bytes.length,
    );
  });
});
