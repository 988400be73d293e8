import { describe, expect, it } from 'vitest';
import { approvalHash, canonicalJson, MAX_HASHED_DEPTH } from './approval-hash';

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

describe('approval fingerprints', () => {
  it('are equal for equal values whatever the key order', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe('{"a":[{"c":3,"d":2}],"b":1}');
  });

  it(`cover arguments up to ${MAX_HASHED_DEPTH - 1} levels (inside the subject) and tell them apart`, () => {
    const subject = (args: unknown) => ({ toolName: 't', args, folder: '/p' });
    expect(approvalHash(subject(nested(MAX_HASHED_DEPTH - 1)))).not.toBe(
      approvalHash(subject(nested(MAX_HASHED_DEPTH - 2))),
    );
  });

  it('refuse a value nested deeper, with a clear error instead of a stack overflow', () => {
    expect(() => approvalHash({ toolName: 't', args: nested(50_000), folder: '/p' })).toThrow(
      /^the arguments nest deeper than 100 levels$/,
    );
  });
});
