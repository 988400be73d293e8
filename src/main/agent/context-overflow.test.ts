import { describe, expect, it } from 'vitest';
import { readOverflow } from './context-overflow';
import { ProviderError } from './provider-faults';

const http = (status: number, detail: string): ProviderError =>
  new ProviderError(`the provider answered HTTP ${status}: ${detail}`, 'http', status, false);

describe("a provider's refusal of a request too long for the window", () => {
  it.each([
    [
      'OpenAI and vLLM',
      "This model's maximum context length is 32768 tokens. However, you requested 33000 tokens (32000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.",
      { limit: 32_768, promptTokens: 32_000 },
    ],
    [
      'OpenAI, messages only',
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.",
      { limit: 128_000, promptTokens: 130_512 },
    ],
    [
      'llama.cpp',
      'request (8000 tokens) exceeds the available context size (4096 tokens), try increasing it',
      { limit: 4096, promptTokens: 8000 },
    ],
    [
      'Anthropic-style',
      'prompt is too long: 210000 tokens > 200000 maximum',
      { limit: 200_000, promptTokens: 210_000 },
    ],
    ['without figures', 'context_length_exceeded', {}],
  ])('is read from %s', (_name, detail, expected) => {
    expect(readOverflow(http(400, detail))).toEqual(expected);
  });

  it.each([
    ['another 400', http(400, 'Invalid schema for function "echo"')],
    ['a 500 that mentions the context', http(500, 'maximum context length is 4096')],
    ['a network fault', new ProviderError('cannot reach the provider', 'network')],
    ['a plain error', new Error("This model's maximum context length is 4096 tokens")],
  ])('is not mistaken in %s', (_name, error) => {
    expect(readOverflow(error)).toBeUndefined();
  });
});
