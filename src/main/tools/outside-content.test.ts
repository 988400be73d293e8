import { describe, expect, it } from 'vitest';
import { commandWithNetworkTaint, SHOWN_COMMAND_MAX } from './outside-content';

describe('commandWithNetworkTaint', () => {
  it.each([
    ['curl -s https://example.com', 'after running `curl -s https://example.com` with network on'],
    ['  npm install  ', 'after running `npm install` with network on'],
    ['echo a\nrm -rf src', 'after running `echo a\\nrm -rf src` with network on'],
    ['ls\r\u001b[2Jfake', 'after running `ls\\r\\x1b[2Jfake` with network on'],
    ['cat \u202Etxt.sh', 'after running `cat ⟨U+202E⟩txt.sh` with network on'],
    ['echo `id`', "after running `echo 'id'` with network on"],
  ])('%j → %s', (command, reason) => {
    expect(commandWithNetworkTaint(command)).toBe(reason);
  });

  it('cuts a long command', () => {
    const reason = commandWithNetworkTaint(`curl ${'x'.repeat(200)}`);
    expect(reason).toBe(
      `after running \`curl ${'x'.repeat(SHOWN_COMMAND_MAX - 5)}…\` with network on`,
    );
  });
});
