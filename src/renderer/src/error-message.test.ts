import { describe, expect, it } from 'vitest';
import { errorMessage } from './error-message';

describe('errorMessage', () => {
  it.each([
    [
      new Error(
        'Error invoking remote method \'tandem:openFolder\': Error: Cannot open "/x": no such folder.',
      ),
      'Cannot open "/x": no such folder.',
    ],
    [
      new Error(
        "Error invoking remote method 'tandem:ping': IpcValidationError: tandem.ping was called with invalid arguments",
      ),
      'tandem.ping was called with invalid arguments',
    ],
    [new Error('plain message'), 'plain message'],
    ['a string', 'a string'],
  ])('%s → %s', (input, expected) => {
    expect(errorMessage(input)).toBe(expected);
  });
});
