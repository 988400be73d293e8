import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedOpenAIServer } from '../../test-support/scripted-openai-server';
import { knownModel } from './known-models';
import { describeWindow, resolveModelWindow, UNKNOWN_MODEL_CONTEXT_TOKENS } from './model-window';
import { createOpenAIProvider } from './provider';
import { listModelEntries } from './provider-probe';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('the table of well-known models', () => {
  it.each([
    ['gpt-4o', 128_000, 'o200k_base'],
    ['openai/gpt-4o-mini', 128_000, 'o200k_base'],
    ['gpt-4.1-mini-2025-04-14', 1_047_576, 'o200k_base'],
    ['gpt-5', 400_000, 'o200k_base'],
    ['o3-mini', 200_000, 'o200k_base'],
    ['gpt-4', 8192, 'cl100k_base'],
    ['gpt-3.5-turbo-0125', 16_385, 'cl100k_base'],
    ['gpt-oss-20b', 131_072, 'o200k_base'],
    ['deepseek-chat', 128_000, undefined],
    ['deepseek-ai/DeepSeek-R1-Distill-Qwen-32B', 128_000, undefined],
    ['qwen2.5-coder:32b', 32_768, undefined],
    ['Qwen/Qwen3-Coder-480B-A35B-Instruct', 262_144, undefined],
    ['meta-llama/Llama-3.3-70B-Instruct', 131_072, undefined],
    ['llama3:8b', 8192, undefined],
    ['mistral-large-latest', 131_072, undefined],
    ['codestral-latest', 262_144, undefined],
    ['mistralai/Mistral-7B-Instruct-v0.3', 32_768, undefined],
    ['gemma3:27b', 131_072, undefined],
    ['google/gemma-2-9b-it', 8192, undefined],
  ])('%s: %i tokens', (model, tokens, encoding) => {
    expect(knownModel(model)?.contextTokens).toBe(tokens);
    expect(knownModel(model)?.encoding).toBe(encoding);
  });

  it('does not know a model it has no row for', () => {
    expect(knownModel('my-finetune')).toBeUndefined();
  });
});

describe("the model's window", () => {
  const never = async () => {
    throw new Error('the model list must not be asked');
  };

  it('takes the person’s figure first, without asking the provider', async () => {
    const window = await resolveModelWindow({
      model: 'gpt-4o',
      contextTokens: 16_000,
      describe: never,
    });
    expect(window).toEqual({
      contextTokens: 16_000,
      answerTokens: 4000,
      source: 'person',
      encoding: 'o200k_base',
      limitField: 'max_completion_tokens',
    });
    expect(describeWindow(window)).toBe('16,000 tokens (your setting), 4,000 kept for the answer');
  });

  it("then the provider's model list, then the table, then a cautious default", async () => {
    const listed = await resolveModelWindow({
      model: 'gpt-4o',
      describe: async () => ({ id: 'gpt-4o', contextTokens: 64_000, maxOutputTokens: 2000 }),
    });
    expect(listed).toMatchObject({ contextTokens: 64_000, answerTokens: 2000, source: 'provider' });
    const table = await resolveModelWindow({ model: 'deepseek-chat', describe: never });
    expect(table).toMatchObject({
      contextTokens: 128_000,
      answerTokens: 8192,
      source: 'table',
      limitField: 'max_tokens',
    });
    expect(table.encoding).toBeUndefined();
    const unknown = await resolveModelWindow({ model: 'my-finetune' });
    expect(unknown).toMatchObject({
      contextTokens: UNKNOWN_MODEL_CONTEXT_TOKENS,
      answerTokens: 8192,
      source: 'default',
    });
  });

  it('reads the limits providers put in their model lists, and ignores nonsense', async () => {
    const server = await startScriptedOpenAIServer({
      turns: [],
      models: [
        {
          id: 'openrouter',
          context_length: 200_000,
          top_provider: { context_length: 100_000, max_completion_tokens: 4096 },
        },
        { id: 'groq', context_window: 131_072, max_completion_tokens: 32_768 },
        { id: 'mistral', max_context_length: 32_768 },
        { id: 'vllm', max_model_len: 16_384 },
        { id: 'bogus', context_length: 'lots', max_model_len: -5, context_window: 1e12 },
        { id: 7 },
        'not an object',
      ],
    });
    closers.push(() => server.close());
    expect(await listModelEntries(server.baseUrl, undefined)).toEqual([
      { id: 'openrouter', contextTokens: 100_000, maxOutputTokens: 4096 },
      { id: 'groq', contextTokens: 131_072, maxOutputTokens: 32_768 },
      { id: 'mistral', contextTokens: 32_768 },
      { id: 'vllm', contextTokens: 16_384 },
      { id: 'bogus' },
    ]);
    const provider = createOpenAIProvider({ baseUrl: server.baseUrl, model: 'vllm', apiKey: 'k' });
    const window = await resolveModelWindow({
      model: provider.model,
      describe: () => provider.describeModel!(),
    });
    expect(window).toMatchObject({ contextTokens: 16_384, answerTokens: 4096, source: 'provider' });
  });

  it.each([
    [
      'gpt-4.1',
      undefined,
      { contextTokens: 200_000, modelContextTokens: 1_047_576, answerTokens: 32_768 },
    ],
    [
      'gpt-5',
      undefined,
      { contextTokens: 200_000, modelContextTokens: 400_000, answerTokens: 50_000 },
    ],
    ['gpt-4.1', 600_000, { contextTokens: 600_000, answerTokens: 32_768, source: 'person' }],
  ])(
    '%s works within 200,000 tokens of a larger window unless the person says more (%s)',
    async (model, contextTokens, expected) => {
      const window = await resolveModelWindow({
        model,
        ...(contextTokens !== undefined ? { contextTokens } : {}),
      });
      expect(window).toMatchObject(expected);
      if (contextTokens !== undefined) expect(window.modelContextTokens).toBeUndefined();
    },
  );

  it('says when it works within less than the model takes', async () => {
    const window = await resolveModelWindow({ model: 'gpt-4.1' });
    expect(window.source).toBe('table');
    expect(describeWindow(window)).toBe(
      "200,000 tokens (Tandem's working limit; the model takes 1,047,576, known for this model), 32,768 kept for the answer",
    );
  });

  it('falls back to the table when the model list cannot be had', async () => {
    const provider = createOpenAIProvider({
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'gpt-4o-mini',
      apiKey: 'k',
    });
    const window = await resolveModelWindow({
      model: provider.model,
      describe: () => provider.describeModel!(),
    });
    expect(window).toMatchObject({ contextTokens: 128_000, source: 'table' });
  });
});
