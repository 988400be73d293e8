import { describe, expect, it } from 'vitest';
import type { SandboxState } from '../shared/tool-types';
import { PLAIN_STYLE } from './cli-style';
import { runHeader } from './run-header';

const BWRAP: SandboxState = { kind: 'bwrap', available: true, description: 'bubblewrap: …' };
const NONE: SandboxState = { kind: 'none', available: false, description: 'Not sandboxed' };

describe('the run header', () => {
  it.each([
    {
      case: 'folder under home, model and host, mode, sandbox',
      info: { folder: '/home/ann/app', mode: 'ask' as const, sandbox: BWRAP },
      line: 'tandem · ~/app · gpt-4.1 at api.openai.com · Ask · sandbox: bubblewrap',
    },
    {
      case: 'autonomous without a sandbox says what applies',
      info: { folder: '/srv/app', mode: 'autonomous' as const, sandbox: NONE },
      line: 'tandem · /srv/app · gpt-4.1 at api.openai.com · Autonomous (asks as Ask: no sandbox) · not sandboxed',
    },
    {
      case: 'a folder with an escape in its name',
      info: { folder: '/srv/a\u001b[2Jb', mode: 'read-only' as const, sandbox: BWRAP },
      line: 'tandem · /srv/a\\x1b[2Jb · gpt-4.1 at api.openai.com · Read-only · sandbox: bubblewrap',
    },
  ])('$case', ({ info, line }) => {
    const header = runHeader(
      { ...info, home: '/home/ann', model: 'gpt-4.1', baseUrl: 'https://api.openai.com/v1' },
      PLAIN_STYLE,
    );
    expect(header).toBe(`${line}\n`);
  });
});
