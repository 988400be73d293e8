// After a crash, the model and the person are told what really happened to a call that had no
// answer (issue 10 item 6): "ran; changed 2 files" or "did not run", from what the journal's
// reconcile and the change tracker found on disk, instead of a blanket "not run".
import { displayPath, renderChangeNote } from '../../shared/change-report';
import type { ChangeTracker } from '../workspace/change-tracker';
import type { FileJournal } from '../workspace/file-journal';
import type { InterruptedAnswer } from './session';

export function describeInterrupted(
  journal: FileJournal,
  tracker: ChangeTracker,
  key: string,
): InterruptedAnswer | undefined {
  const call = journal.calls.get(key);
  if (call?.command) {
    const report = tracker.reportFor(key);
    if (!report) return undefined;
    if (report.kind !== 'tracked') {
      return {
        ok: false,
        output: `Tandem stopped while this command was running. What it changed is not known. ${renderChangeNote(report)}`,
        changes: report,
      };
    }
    if (report.files.length === 0) {
      return {
        ok: false,
        output: `Tandem stopped while this command was starting or running; it changed no files.\n\n${renderChangeNote(report)}`,
        changes: report,
      };
    }
    return {
      ok: false,
      output:
        `Tandem stopped while this command was running. It ran and changed ` +
        `${report.files.length} file${report.files.length === 1 ? '' : 's'} before it stopped; ` +
        `its output is lost.\n\n${renderChangeNote(report)}`,
      changes: report,
    };
  }
  const writes = (journal.interrupted.get(key) ?? []).flatMap((item) =>
    item.kind === 'write' ? [item] : [],
  );
  if (writes.length === 0) return undefined;
  const lines = writes.map((item) => {
    const name = displayPath(journal.nameOf(item.path));
    switch (item.outcome) {
      case 'completed':
        return `The write of ${name} completed before Tandem stopped (it can be reverted).`;
      case 'not-run':
        return `Not run: Tandem stopped before ${name} was written; it is unchanged.`;
      case 'unknown':
        return `Tandem stopped while writing ${name}; it is now neither the old nor the new content.`;
    }
  });
  return { ok: writes.every((item) => item.outcome === 'completed'), output: lines.join('\n') };
}
