// The preview a person sees before a write: a unified diff (jsdiff), or the size of a new file.
import { createTwoFilesPatch } from 'diff';
import { diffStats } from '../../workspace/diff-stats';
import type { ToolPreview } from '../../../shared/tool-types';

export function countLines(text: string): number {
  if (text === '') return 0;
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}

/** `oldText` undefined means the file does not exist yet. */
export function diffPreview(
  relative: string,
  oldText: string | undefined,
  newText: string,
): ToolPreview {
  if (oldText === undefined) {
    const lines = countLines(newText);
    return {
      kind: 'diff',
      path: relative,
      diff: createTwoFilesPatch('/dev/null', `b/${relative}`, '', newText, '', '', { context: 3 }),
      summary: `new file, ${lines} line${lines === 1 ? '' : 's'}`,
      isNewFile: true,
    };
  }
  const stats = diffStats(oldText, newText);
  return {
    kind: 'diff',
    path: relative,
    diff: createTwoFilesPatch(`a/${relative}`, `b/${relative}`, oldText, newText, '', '', {
      context: 3,
    }),
    summary: oldText === newText ? 'no change' : `+${stats.added} −${stats.removed}`,
    isNewFile: false,
  };
}
