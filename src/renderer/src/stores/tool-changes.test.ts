import { describe, expect, it } from 'vitest';
import type { ToolItem } from './trace-model';
import { canRevert, splitChangeSummary } from './tool-changes';

const tool = (over: Partial<ToolItem>): ToolItem => ({
  kind: 'tool',
  startedAt: 0,
  id: 'c1',
  callId: 'c1',
  runId: 'r1',
  name: 'shell',
  args: {},
  effect: 'exec',
  status: 'done',
  output: '',
  outputTotal: 0,
  ...over,
});

const CHANGED =
  'hi\nexit code 0\n\nChanges on disk (can be reverted): 1 file changed, +1 −0\nadded out.txt';

describe('splitChangeSummary', () => {
  it.each<[string, string, string | null]>([
    [
      'a command that changed files',
      CHANGED,
      'Changes on disk (can be reverted): 1 file changed, +1 −0\nadded out.txt',
    ],
    ['no changes', 'exit code 0\n\nChanges on disk: none.', 'Changes on disk: none.'],
    ['no journal note', 'exit code 0', null],
    ['only the note', 'Changes on disk: none.', 'Changes on disk: none.'],
  ])('%s', (_name, result, changes) => {
    const split = splitChangeSummary(result);
    expect(split.changes).toBe(changes);
    if (changes) expect(split.text + (split.text ? '\n\n' : '') + changes).toBe(result.trim());
    else expect(split.text).toBe(result);
  });
});

describe('canRevert', () => {
  it.each<[string, Partial<ToolItem>, boolean]>([
    ['a command that changed files', { result: CHANGED }, true],
    ['a command that changed nothing', { result: 'exit 0\n\nChanges on disk: none.' }, false],
    ['a command still running', { status: 'running' }, false],
    ['a write that ran', { name: 'write_file', effect: 'write', result: 'Wrote a.txt' }, true],
    ['an edit that failed', { name: 'edit_file', status: 'failed', result: 'no match' }, false],
    ['a denied write', { name: 'write_file', status: 'refused', result: 'Denied' }, false],
    ['a read', { name: 'read_file', effect: 'read', result: 'text' }, false],
  ])('%s → %s', (_name, over, expected) => {
    expect(canRevert(tool(over))).toBe(expected);
  });
});
