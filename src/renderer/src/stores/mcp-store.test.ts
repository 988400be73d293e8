import { beforeEach, describe, expect, it } from 'vitest';
import type { McpOverview } from '../../../shared/mcp-types';
import type { TandemApi } from '../../../shared/api';
import { useMcpStore } from './mcp-store';

const overview: McpOverview = { servers: [], project: { kind: 'none' }, problems: [] };

// Main's answers, in order: a value, or an Error it throws.
let answers: (McpOverview | Error)[] = [];
const next = async (): Promise<McpOverview> => {
  const answer = answers.shift();
  if (!answer) throw new Error('no answer scripted');
  if (answer instanceof Error) throw answer;
  return answer;
};

beforeEach(() => {
  answers = [];
  const api: Pick<TandemApi, 'getMcpOverview' | 'restartMcpServer'> = {
    getMcpOverview: next,
    restartMcpServer: next,
  };
  Object.assign(globalThis, { window: { tandem: api } });
  useMcpStore.setState({ overview: null, error: null, busy: false });
});

describe('mcp store', () => {
  it('takes a failed refresh’s error away when a later refresh works', async () => {
    answers = [new Error('main is busy'), overview];
    await useMcpStore.getState().load();
    expect(useMcpStore.getState().error).toBe('main is busy');
    await useMcpStore.getState().load();
    expect(useMcpStore.getState()).toMatchObject({ overview, error: null });
  });

  it('keeps an action’s error through a refresh until the person dismisses it', async () => {
    answers = [new Error('the server would not restart'), overview];
    await useMcpStore.getState().restart('everything');
    await useMcpStore.getState().load();
    expect(useMcpStore.getState().error).toBe('the server would not restart');
    useMcpStore.getState().dismissError();
    expect(useMcpStore.getState().error).toBeNull();
  });
});
