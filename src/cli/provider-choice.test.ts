// The key `tandem run` sends comes from the environment as it is set there: a line break around it
// (a key read from a file) is dropped; one inside it is refused before anything is sent, without
// showing the key (as a header it would fail every attempt as if the network had).
import { describe, expect, it } from 'vitest';
import { CliFailure, EXIT } from './cli-io';
import { chooseProvider } from './provider-choice';

const KEY = 'sk-choice-test-0123456789';
const flags = { baseUrl: 'https://api.example.test/v1', model: 'm' } as const;

describe('the API key from the environment', () => {
  it('drops whitespace around it', async () => {
    const choice = await chooseProvider({ ...flags, env: { OPENAI_API_KEY: `  ${KEY}\r\n` } });
    expect(choice.apiKey).toBe(KEY);
  });

  it.each([
    ['a line break', `${KEY.slice(0, 8)}\n${KEY.slice(8)}`],
    ['a carriage return', `${KEY}\rInjected: 1`],
    ['a space', `${KEY} ${KEY}`],
    ['a NUL', `${KEY}\0`],
    ['a DEL', `${KEY}\u007f`],
  ])('refuses one with %s inside, naming the variable, not the key', async (_name, value) => {
    const failure = await chooseProvider({
      ...flags,
      apiKeyEnv: 'MY_KEY',
      env: { MY_KEY: value },
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CliFailure);
    expect((failure as CliFailure).exitCode).toBe(EXIT.setup);
    expect((failure as Error).message).toContain('MY_KEY');
    expect((failure as Error).message).not.toContain(KEY.slice(0, 8));
  });
});
