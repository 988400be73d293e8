import * as pty from 'node-pty';
import { describe, expect, it } from 'vitest';
import { drainBeforeDestroy } from './pty-drain';

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

describe('drainBeforeDestroy', () => {
  it('delivers output still buffered when node-pty destroys the socket', async () => {
    const term = pty.spawn('/bin/sh', ['-c', 'printf "last words"; sleep 1'], {
      cwd: '/',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
    const seen: string[] = [];
    const exited = new Promise<void>((resolve) => term.onExit(() => resolve()));
    drainBeforeDestroy(term, (chunk) => seen.push(chunk));
    // Block the event loop while the child writes, then destroy the socket the way node-pty's
    // 200 ms exit timer does, before any 'data' event could run.
    sleepSync(300);
    const socket = (term as unknown as { _socket: { destroy(): void } })._socket;
    socket.destroy();
    expect(seen.join('')).toBe('last words');
    term.kill('SIGKILL');
    await exited;
  });
});
