// The journal's records folded into what undo needs: per call, each path's before and after
// images, an unfinished intent, whether the call was a command and whether it was reverted.
import type { FileImage } from './file-image';
import type { JournalRecord } from './journal-record';

export interface PathRecord {
  before: FileImage;
  after?: FileImage;
  keepDir?: string;
  /** A write announced and not (yet) completed. */
  intent?: { readonly sha256: string; readonly size: number; readonly temp: string };
}

export interface CommandState {
  ended: boolean;
  notTracked: readonly string[];
  recovered: boolean;
  untracked?: string;
}

export interface CallRecord {
  seq: number;
  files: Map<string, PathRecord>;
  reverted: boolean;
  command?: CommandState;
  /** Temp names of a revert that started; cleared when it finished. */
  revertTemps?: readonly string[];
}

export interface JournalState {
  readonly calls: Map<string, CallRecord>;
  /** The highest sequence number seen; new records count on from it. */
  seq: number;
}

export function applyRecord(state: JournalState, record: JournalRecord): void {
  const callOf = (callId: string, seq: number): CallRecord => {
    let call = state.calls.get(callId);
    if (!call) {
      call = { seq, files: new Map(), reverted: false };
      state.calls.set(callId, call);
    }
    return call;
  };
  switch (record.type) {
    case 'before': {
      state.seq = Math.max(state.seq, record.seq);
      const call = callOf(record.callId, record.seq);
      if (!call.files.has(record.path)) {
        call.files.set(record.path, { before: record.image, keepDir: record.keepDir });
      }
      return;
    }
    case 'after': {
      const file = state.calls.get(record.callId)?.files.get(record.path);
      if (file) file.after = record.image;
      return;
    }
    case 'write-intent': {
      state.seq = Math.max(state.seq, record.seq);
      const call = callOf(record.callId, record.seq);
      const intent = { ...record.planned, temp: record.temp };
      const file = call.files.get(record.path);
      if (file)
        file.intent = intent; // A second write in one call: the first before stays.
      else call.files.set(record.path, { before: record.before, keepDir: record.keepDir, intent });
      return;
    }
    case 'write-done': {
      const file = state.calls.get(record.callId)?.files.get(record.path);
      if (file) {
        file.after = record.after;
        delete file.intent;
      }
      return;
    }
    case 'write-abandoned':
      state.calls.get(record.callId)?.files.delete(record.path);
      return;
    case 'command-start': {
      state.seq = Math.max(state.seq, record.seq);
      const call = callOf(record.callId, record.seq);
      call.command = { ended: false, notTracked: [], recovered: false };
      return;
    }
    case 'command-end': {
      const call = callOf(record.callId, ++state.seq);
      call.command = {
        ended: true,
        notTracked: record.notTracked,
        recovered: record.recovered === true,
        ...(record.untracked !== undefined ? { untracked: record.untracked } : {}),
      };
      for (const file of record.files) {
        if (call.files.has(file.path)) continue;
        call.files.set(file.path, {
          before: file.before,
          after: file.after,
          keepDir: file.keepDir,
        });
      }
      return;
    }
    case 'revert-start': {
      const call = state.calls.get(record.callId);
      if (call) call.revertTemps = record.temps;
      return;
    }
    case 'reverted': {
      const call = state.calls.get(record.callId);
      if (call) {
        call.reverted = true;
        delete call.revertTemps;
      }
      return;
    }
    case 'revert-interrupted': {
      const call = state.calls.get(record.callId);
      if (call) delete call.revertTemps;
      return;
    }
  }
}
