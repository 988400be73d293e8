// The person's edit of a call on its card: which edits a call accepts, and the arguments it
// makes. Only the part the tool declares editable changes (a command's text, a write's
// content); every other argument stays as the model sent it.
import type { EditedArgs } from '../../shared/tool-types';
import type { GateRequest } from './gate';

/** Why this edit cannot be taken for this call, or null. */
export function editProblem(request: GateRequest, edited: EditedArgs): string | null {
  const { tool } = request;
  if (!request.revalidate) return 'calls cannot be edited here';
  if (tool.editable !== edited.kind) {
    return tool.editable
      ? `only the ${tool.editable} of ${tool.name} can be edited`
      : `${tool.name} calls cannot be edited`;
  }
  const checked = request.revalidate(withEdit(request.args, edited));
  return checked.ok ? null : checked.message;
}

/** The call's arguments with the person's edit in place of the model's text. */
export function withEdit(args: unknown, edited: EditedArgs): Record<string, unknown> {
  const base = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {};
  switch (edited.kind) {
    case 'command':
      return { ...base, command: edited.command };
    case 'content':
      return { ...base, content: edited.content };
  }
}
