// A call's arguments with the person's edit in place (what main ran), for the card to show.
import type { EditedArgs } from '../../../shared/tool-types';

export function withEdit(args: unknown, edited: EditedArgs): unknown {
  const base = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
  switch (edited.kind) {
    case 'command':
      return { ...base, command: edited.command };
    case 'content':
      return { ...base, content: edited.content };
  }
}

/** The text the card's editor starts from: the command, or the content to write. */
export function editableText(args: unknown, kind: EditedArgs['kind']): string {
  const value = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>;
  const text = value[kind];
  return typeof text === 'string' ? text : '';
}
