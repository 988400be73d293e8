// What the model is told after the person undid files: the next request carries this note, so
// the model does not go on believing its change is still on disk.
import type { RunEvent } from '../../shared/events';

export type RevertedFiles = Extract<RunEvent, { type: 'files-reverted' }>['files'];

/** What was undone, as a phrase: "the edit of src/sum.js", "every change of the run for …". */
export type RevertSubject =
  | { readonly kind: 'call'; readonly name: string; readonly args: unknown }
  | { readonly kind: 'run'; readonly task: string | undefined }
  | { readonly kind: 'files' };

export function revertNote(subject: RevertSubject, files: RevertedFiles): string {
  const list = files.map((f) => `${f.action} ${f.path}`).join(', ');
  return (
    `Note from Tandem (not a new task): the person reverted ${describeSubject(subject)}` +
    `${list ? ` (${list})` : ''}. ` +
    'Those files are back as they were before that change; read them again before relying on their content.'
  );
}

function describeSubject(subject: RevertSubject): string {
  switch (subject.kind) {
    case 'call': {
      const args = (
        typeof subject.args === 'object' && subject.args !== null ? subject.args : {}
      ) as {
        path?: unknown;
        command?: unknown;
      };
      const path = typeof args.path === 'string' ? args.path : undefined;
      if (subject.name === 'edit_file' && path) return `your edit of ${path}`;
      if (subject.name === 'write_file' && path) return `your write of ${path}`;
      if (subject.name === 'shell' && typeof args.command === 'string')
        return `the changes made by your command \`${oneLine(args.command)}\``;
      return `the changes made by your ${subject.name} call`;
    }
    case 'run':
      return subject.task
        ? `every change you made for the task "${oneLine(subject.task)}"`
        : 'every change you made in one earlier task';
    case 'files':
      return 'changes of this session to some files, back to how they were when the session started';
  }
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
