import { appendFileSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/agent-harness';
import { chatMessageSchema } from '../agent/chat-message';
import { readTranscript, TranscriptWriter } from './transcript';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempFile(): Promise<string> {
  const dir = await makeTempDir('transcript');
  dirs.push(dir);
  return join(dir, 'sessions', 's1.jsonl');
}

describe('transcript', () => {
  it('writes one complete JSON line per entry, as it goes', async () => {
    const file = await tempFile();
    const writer = new TranscriptWriter(file);
    writer.appendMeta({ type: 'session-created' }, 1);
    writer.appendMessage({ role: 'user', content: 'hi\nthere' }, 2);
    // Readable before close: nothing waits in a buffer.
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines).toEqual([
      '{"type":"session-created","kind":"meta","at":1}',
      '{"kind":"message","at":2,"message":{"role":"user","content":"hi\\nthere"}}',
      '',
    ]);
    writer.appendEvent({ type: 'run-finished', runId: 'r', reason: 'done' }, 3);
    writer.close();
    expect(readTranscript(file, chatMessageSchema())).toEqual({
      messages: [{ role: 'user', content: 'hi\nthere' }],
      events: [{ type: 'run-finished', runId: 'r', reason: 'done' }],
      metas: [{ type: 'session-created', kind: 'meta', at: 1 }],
      skippedLines: 0,
      problems: [],
    });
  });

  it('loads everything before a torn last line, and appends after it cleanly', async () => {
    const file = await tempFile();
    const writer = new TranscriptWriter(file);
    writer.appendMessage({ role: 'user', content: 'one' });
    writer.appendMessage({ role: 'assistant', content: 'two' });
    writer.close();
    appendFileSync(file, '{"kind":"message","at":5,"message":{"role":"us');
    const loaded = readTranscript(file, chatMessageSchema());
    expect(loaded.messages).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'two' },
    ]);
    expect(loaded.skippedLines).toBe(1);
    expect(loaded.problems).toEqual(['line 3: not JSON (a line cut short by a crash?)']);

    const again = new TranscriptWriter(file);
    again.appendMessage({ role: 'user', content: 'three' });
    again.close();
    expect(readTranscript(file, chatMessageSchema()).messages.map((m) => m.content)).toEqual([
      'one',
      'two',
      'three',
    ]);
  });

  it('reads a missing file as empty', async () => {
    expect(
      readTranscript(join(await makeTempDir('none'), 'x.jsonl'), chatMessageSchema()).messages,
    ).toEqual([]);
  });

  it('writes a value nested 100,000 deep as a line that reads back', async () => {
    const file = await tempFile();
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const writer = new TranscriptWriter(file);
    writer.appendEvent({
      type: 'tool-call-started',
      runId: 'r',
      callId: 'c',
      name: 'x',
      args: deep,
      effect: 'read',
      at: 1,
    });
    writer.appendMessage({ role: 'user', content: 'after' });
    writer.close();
    const loaded = readTranscript(file, chatMessageSchema());
    expect(loaded.skippedLines).toBe(0);
    expect(loaded.events[0]?.type).toBe('tool-call-started');
    expect(loaded.messages).toEqual([{ role: 'user', content: 'after' }]);
  });

  it.each([
    ['null', 'line 1: not a record'],
    ['[null]', 'line 1: not a record'],
    [
      '{"kind":"message","at":1,"message":{"role":"assistant","content":null,"tool_calls":[{}]}}',
      'line 1: a damaged message (message.tool_calls.0.id: ',
    ],
    [
      '{"kind":"message","at":1,"message":{"role":"assistant","content":null,"tool_calls":[null]}}',
      'line 1: a damaged message (message.tool_calls.0: ',
    ],
    [
      '{"kind":"event","at":1,"event":{"type":"tool-result","runId":"r","callId":"c","ok":true}}',
      'line 1: a damaged event (event.output: ',
    ],
    ['{"kind":"event","at":1,"event":null}', 'line 1: a damaged event (event: '],
    ['{"kind":"other"}', 'line 1: a record of no known kind'],
  ])('skips and reports %s', async (line, problem) => {
    const file = await tempFile();
    new TranscriptWriter(file).close();
    appendFileSync(
      file,
      `${line}\n{"kind":"message","at":2,"message":{"role":"user","content":"ok"}}\n`,
    );
    const loaded = readTranscript(file, chatMessageSchema());
    expect(loaded.messages).toEqual([{ role: 'user', content: 'ok' }]);
    expect(loaded.skippedLines).toBe(1);
    expect(loaded.problems[0]?.startsWith(problem)).toBe(true);
  });
});
