import { describe, expect, it } from 'vitest';
import { renderChangeNote, type ChangeReport } from '../../../shared/change-report';
import type { ToolItem } from './trace-model';
import { outputSummary } from './tool-summary';

const tool = (over: Partial<ToolItem>): ToolItem => ({
  kind: 'tool',
  id: 'c1',
  callId: 'c1',
  runId: 'r1',
  name: 'shell',
  args: {},
  effect: 'exec',
  status: 'done',
  startedAt: 0,
  output: '',
  outputTotal: 0,
  ...over,
});

const changed: ChangeReport = {
  kind: 'tracked',
  files: [{ path: 'out.txt', status: 'added', added: 1, removed: 0, content: 'text', diff: '' }],
  revertable: true,
  notTracked: [],
};

describe('outputSummary', () => {
  it.each<[string, Partial<ToolItem>, string | null]>([
    ['still running', { result: undefined, status: 'running' }, null],
    [
      'a command with output and changes',
      {
        // The change note is left out by the data it was rendered from, not by its wording.
        result: `a\nb\n\nexit code 0 · 0.1 s · sandbox: bubblewrap\n\n${renderChangeNote(changed)}`,
        changes: changed,
      },
      'exit code 0 · 2 lines',
    ],
    [
      'a silent command',
      { result: '(no output)\n\nexit code 0 · 0.0 s · no sandbox: x' },
      'exit code 0 · no output',
    ],
    [
      'a stopped command',
      {
        status: 'stopped',
        result:
          'tick\n\nstopped; the command and everything it started were killed · 2.0 s · sandbox: x',
      },
      'stopped · 1 line',
    ],
    [
      'a file read',
      { name: 'read_file', effect: 'read', result: 'notes.txt (lines 1-2 of 2)\n1\tone\n2\ttwo' },
      'notes.txt (lines 1-2 of 2)',
    ],
    [
      'a folder listing',
      { name: 'list_dir', effect: 'read', result: './\na/\nb.txt' },
      './ · 2 entries',
    ],
    [
      'an edit',
      { name: 'edit_file', effect: 'write', result: 'Edited notes.txt: +1 −1.' },
      'Edited notes.txt: +1 −1.',
    ],
    [
      'a failure with detail',
      { name: 'read_file', status: 'failed', result: 'Error: no such file\nhint: list the folder' },
      'Error: no such file (+1 more line)',
    ],
  ])('%s', (_name, over, summary) => {
    expect(outputSummary(tool(over))).toBe(summary);
  });
});
