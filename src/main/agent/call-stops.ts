// Running calls the person may stop one by one (a command's own Stop button) without stopping
// the run: each running call registers its abort here under its call id.

export class CallStops {
  private readonly running = new Map<string, AbortController>();

  /** Registers a running call; the returned function unregisters it. */
  register(callId: string, controller: AbortController): () => void {
    this.running.set(callId, controller);
    return () => {
      if (this.running.get(callId) === controller) this.running.delete(callId);
    };
  }

  /** Stops one running call; false when it is not running (finished, or never started). */
  stop(callId: string): boolean {
    const controller = this.running.get(callId);
    if (!controller) return false;
    controller.abort(new Error('stopped by the person'));
    return true;
  }
}
