// An MCP stdio transport that starts exactly the planned argv with exactly the planned environment
// (the SDK's own transport adds variables of ours), in its own process group so stopping it ends
// everything it started, with stderr handed over chunk by chunk (never buffered whole) and the
// stdout buffer capped, so a server that floods either stream cannot grow our memory.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { killProcessTree } from '../shell/process-reaper';
import type { StdioLaunch } from './stdio-launch';

/** Largest single message accepted from a server's stdout. */
export const MAX_STDOUT_MESSAGE_BYTES = 8 * 1024 * 1024;
const CLOSE_GRACE_MS = 1500;

export interface StdioTransportOptions {
  readonly onStderr: (text: string) => void;
  /** How the process ended, for the failure reason ("exited with code 1", "killed by SIGKILL"). */
  readonly onExit: (how: string) => void;
}

export class SandboxedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcess | undefined;
  private readonly buffer = new ReadBuffer({ maxBufferSize: MAX_STDOUT_MESSAGE_BYTES });
  private closed = false;

  constructor(
    private readonly launch: Pick<StdioLaunch, 'argv' | 'env' | 'cwd'>,
    private readonly options: StdioTransportOptions,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('the server was started already');
    const [program, ...args] = this.launch.argv;
    return new Promise((resolve, reject) => {
      const child = spawn(program, args, {
        env: { ...this.launch.env },
        cwd: this.launch.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        // Its own process group: stop kills the group, so nothing it started lingers.
        detached: true,
        windowsHide: true,
      });
      this.child = child;
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => resolve());
      child.once('close', (code, signal) => {
        this.options.onExit(
          signal ? `was killed by ${signal}` : `exited with code ${code ?? 'unknown'}`,
        );
        this.child = undefined;
        this.finishClose();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.receive(chunk));
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (text: string) => this.options.onStderr(text));
    });
  }

  private receive(chunk: Buffer): void {
    try {
      this.buffer.append(chunk);
    } catch (error) {
      // A line longer than the cap: the stream cannot be trusted any more.
      this.onerror?.(error as Error);
      void this.close();
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (error) {
        // A line that is not JSON-RPC (a server logging to stdout): reported, then skipped.
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed) return Promise.reject(new Error('the server is not running'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', () => resolve());
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    if (!child) {
      this.finishClose();
      return;
    }
    const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
    // Closing stdin is how the protocol asks a stdio server to stop; then signals.
    child.stdin?.end();
    if (await settlesWithin(exited, CLOSE_GRACE_MS)) return;
    signalGroup(child, 'SIGTERM');
    if (await settlesWithin(exited, CLOSE_GRACE_MS)) return;
    if (child.pid !== undefined) killProcessTree(child.pid);
    await settlesWithin(exited, CLOSE_GRACE_MS);
  }

  private finishClose(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer.clear();
    this.onclose?.();
  }
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

async function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  const result = await Promise.race([promise.then(() => true), timeout]);
  clearTimeout(timer);
  return result;
}
