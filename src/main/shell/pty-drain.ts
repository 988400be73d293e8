// node-pty gives its socket 200 ms after the child exits to deliver what is still buffered, then
// destroys it. A busy event loop (or a busy machine) misses that window and the end of the output,
// often the error message, is lost. So just before the socket is destroyed, read what is left.
// This reaches into node-pty internals (`_socket`, `_fd` of UnixTerminal); when they are not
// there (another platform or version) nothing changes.
import { readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { IPty } from 'node-pty';

interface UnixTerminalInternals {
  _socket?: { destroy?: (...args: unknown[]) => unknown };
  _fd?: unknown;
}

export function drainBeforeDestroy(term: IPty, deliver: (chunk: string) => void): void {
  const internals = term as unknown as UnixTerminalInternals;
  const socket = internals._socket;
  const fd = internals._fd;
  if (!socket || typeof socket.destroy !== 'function' || typeof fd !== 'number') return;
  const destroy = socket.destroy.bind(socket);
  let drained = false;
  socket.destroy = (...args: unknown[]) => {
    // Only the first call: afterwards the descriptor is closed and its number may be reused.
    if (!drained) {
      drained = true;
      const decoder = new StringDecoder('utf8');
      const buffer = Buffer.alloc(64 * 1024);
      for (;;) {
        let read = 0;
        try {
          read = readSync(fd, buffer, 0, buffer.length, null); // non-blocking: EAGAIN or EIO ends it
        } catch {
          break;
        }
        if (read <= 0) break;
        const text = decoder.write(buffer.subarray(0, read));
        if (text) deliver(text);
      }
      const rest = decoder.end();
      if (rest) deliver(rest);
    }
    return destroy(...args);
  };
}
