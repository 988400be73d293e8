// What a crash interrupted, settled from what is on disk when the project is opened again
// (issue 10 item 6): a write whose file already has the planned content is completed, one whose
// file is still as before is dropped (it did not happen), and the temps both announced are
// deleted (through verified folders only); an interrupted revert has its temps deleted and can
// simply be run again; commands without an end are returned for the change tracker to measure.
import { captureImage, removeTempFile, sameImage } from './file-image';
import type { JournalRecord } from './journal-record';
import type { CallRecord } from './journal-state';
import type { ObjectStore } from './object-store';

export type Interrupted =
  | { readonly kind: 'command'; readonly callId: string }
  | {
      readonly kind: 'write';
      readonly callId: string;
      readonly path: string;
      readonly outcome: 'completed' | 'not-run' | 'unknown';
    }
  | { readonly kind: 'revert'; readonly callId: string };

export interface ReconcileDeps {
  readonly folder: string;
  readonly objects: ObjectStore;
  readonly append: (record: JournalRecord, durable: boolean) => void;
}

export async function reconcileJournal(
  calls: ReadonlyMap<string, CallRecord>,
  deps: ReconcileDeps,
): Promise<Interrupted[]> {
  const found: Interrupted[] = [];
  for (const [callId, call] of calls) {
    for (const [path, record] of call.files) {
      if (!record.intent) continue;
      await removeTempFile(deps.folder, record.intent.temp);
      const current = await captureImage(deps.folder, path, deps.objects, false);
      const image = current.ok ? current.image : undefined;
      let outcome: 'completed' | 'not-run' | 'unknown' = 'unknown';
      if (image?.kind === 'file' && image.sha256 === record.intent.sha256) {
        deps.append({ type: 'write-done', callId, path, after: image }, false);
        outcome = 'completed';
      } else if (image && sameImage(image, record.before)) {
        deps.append({ type: 'write-abandoned', callId, path }, false);
        outcome = 'not-run';
      }
      found.push({ kind: 'write', callId, path, outcome });
    }
    if (call.revertTemps) {
      for (const temp of call.revertTemps) await removeTempFile(deps.folder, temp);
      deps.append({ type: 'revert-interrupted', callId }, false);
      found.push({ kind: 'revert', callId });
    }
    if (call.command && !call.command.ended) found.push({ kind: 'command', callId });
  }
  return found;
}
