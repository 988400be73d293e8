// The person's edit of a call on its card: which edits a call accepts, and the arguments it
// makes. Only the part the tool declares editable changes (a command's text, a write's
// content); every other argument stays as the model sent it.
import type { EditedArgs } from '../../shared/tool-types';
import { namedFileContents } from './command-files';
import type { GateRequest } from './gate';
import type { PolicyDeps } from './policy-deps';

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

/**
 * Reasons of an edited call that the answered card did not show. Reasons quote the command they
 * are about (`touch a.txt`: not a known read-only command: touch); the quote is left out of the
 * comparison, so `touch b.txt` needs nothing new while `rm -f keep.txt` does.
 */
export function newReasons(reasons: readonly string[], shown: readonly string[]): string[] {
  const kind = (reason: string): string => reason.replace(/`[^`]*`/g, '`…`');
  const seen = new Set(shown.map(kind));
  return reasons.filter((reason) => !seen.has(kind(reason)));
}

/**
 * For an edited command: the project files the edit names, read when the person answered (the
 * calls ahead of it in its turn may change them before it runs); undefined for other edits.
 */
export async function editedCommandFiles(
  request: GateRequest,
  edited: EditedArgs,
  deps: PolicyDeps,
): Promise<Record<string, string> | undefined> {
  const checked = request.revalidate?.(withEdit(request.args, edited));
  if (!checked?.ok || !request.tool.target) return undefined;
  const target = request.tool.target(checked.args as never, request.ctx);
  if (target.kind !== 'command') return undefined;
  const verdict = await deps.classifyCommand(target.command, request.ctx.folder, {
    untouchable: request.ctx.services.dataFolders ?? [],
  });
  return namedFileContents(request.ctx.folder, { text: target.command, parts: verdict.parts });
}
