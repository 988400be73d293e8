import { describe, expect, it } from 'vitest';
import { contextWindowOf } from './model-context';

describe('contextWindowOf', () => {
  it.each<[string, number | null]>([
    ['gpt-4.1', 1_047_576],
    ['gpt-4.1-mini', 1_047_576],
    ['openai/gpt-4o-mini', 128_000],
    ['gpt-4o-2024-08-06', 128_000],
    ['o4-mini', 200_000],
    ['llama3.1:8b', null],
    ['gpt-4.1-turbo-unknown', null],
  ])('%s → %s', (model, tokens) => {
    expect(contextWindowOf(model)).toBe(tokens);
  });
});
