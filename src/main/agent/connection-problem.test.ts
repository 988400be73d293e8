import { describe, expect, it } from 'vitest';
import { connectionProblem } from './connection-problem';

function chain(...levels: { message: string; code?: string }[]): Error {
  let cause: Error | undefined;
  for (const level of [...levels].reverse()) {
    const error = new Error(level.message, cause ? { cause } : undefined);
    if (level.code) Object.assign(error, { code: level.code });
    cause = error;
  }
  return cause as Error;
}

describe('connectionProblem', () => {
  it.each<[string, Error | string, string]>([
    [
      'a refused connection three levels down',
      chain(
        { message: 'Connection error.' },
        { message: 'fetch failed' },
        { message: 'connect ECONNREFUSED 127.0.0.1:9', code: 'ECONNREFUSED' },
      ),
      'connection refused',
    ],
    [
      'an unknown host',
      chain({ message: 'x' }, { message: 'y', code: 'ENOTFOUND' }),
      'no such host',
    ],
    [
      'an unknown code keeps the message and the code',
      chain({ message: 'x' }, { message: 'odd failure', code: 'EWEIRD' }),
      'odd failure (EWEIRD)',
    ],
    ['no code at all', chain({ message: 'terminated' }), 'terminated'],
    ['not an error', 'boom', 'network error'],
  ])('%s', (_name, error, words) => {
    expect(connectionProblem(error)).toBe(words);
  });
});
