// Running commands the person may type into. Keys are call ids; a write reaches only that
// call's pty. Only the window (the person) calls `write`; the model has no path to it.
export interface PtyInput {
  write(data: string): void;
}

export class ShellSessions {
  private readonly running = new Map<string, PtyInput>();

  add(callId: string, pty: PtyInput): void {
    this.running.set(callId, pty);
  }

  remove(callId: string, pty: PtyInput): void {
    if (this.running.get(callId) === pty) this.running.delete(callId);
  }

  /** Sends keystrokes to one running command. False when that call is not running. */
  write(callId: string, data: string): boolean {
    const pty = this.running.get(callId);
    if (!pty) return false;
    pty.write(data);
    return true;
  }

  has(callId: string): boolean {
    return this.running.has(callId);
  }

  get size(): number {
    return this.running.size;
  }
}

/** The process-wide registry the shell tool uses unless given another. */
export const shellSessions = new ShellSessions();
