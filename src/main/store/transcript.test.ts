import { appendFileSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/agent-harness';
import { isChatMessage } from '../agent/chat-message';
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
    expect(readTranscript(file, isChatMessage)).toEqual({
      messages: [{ role: 'user', content: 'hi\nthere' }],
      events: [{ type: 'run-finished', runId: 'r', reason: 'done' }],
      metas: [{ type: 'session-created', kind: 'meta', at: 1 }],
      skippedLines: 0,
    });
  });

  it('loads everything before a torn last line, and appends after it cleanly', async () => {
    const file = await tempFile();
    const writer = new TranscriptWriter(file);
    writer.appendMessage({ role: 'user', content: 'one' });
    writer.appendMessage({ role: 'assistant', content: 'two' });
    writer.close();
    appendFileSync(file, '{"kind":"message","at":5,"message":{"role":"us');
    const loaded = readTranscript(file, isChatMessage);
    expect(loaded.messages).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'two' },
    ]);
    expect(loaded.skippedLines).toBe(1);

    const again = new TranscriptWriter(file);
    again.appendMessage({ role: 'user', content: 'three' });
    again.close();
    expect(readTranscript(file, isChatMessage).messages.map((m) => m.content)).toEqual([
      'one',
      'two',
      'three',
    ]);
  });

  it('reads a missing file as empty', async () => {
    expect(
      readTranscript(join(await makeTempDir('none'), 'x.jsonl'), isChatMessage).messages,
    ).toEqual([]);
  });
});
