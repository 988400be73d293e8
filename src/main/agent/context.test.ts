import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '../../test-support/agent-harness';
import type { ChatMessage } from './chat-message';
import { buildSystemPrompt, estimateTokens, fitHistory, loadAgentsMd } from './context';

describe('system prompt', () => {
  it("names the folder, the OS, the tools and includes the project's AGENTS.md", async () => {
    const folder = await makeTempDir('ctx');
    try {
      expect(await loadAgentsMd(folder)).toBeUndefined();
      await writeFile(join(folder, 'AGENTS.md'), 'Run `make check` before you finish.');
      const prompt = buildSystemPrompt({
        folder,
        platform: 'linux 6.1',
        toolNames: ['read_file', 'shell'],
        agentsMd: await loadAgentsMd(folder),
      });
      expect(prompt).toContain(`Project folder: ${folder}`);
      expect(prompt).toContain('Operating system: linux 6.1');
      expect(prompt).toContain('Tools: read_file, shell.');
      expect(prompt).toContain('Run `make check` before you finish.');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('does not follow an AGENTS.md symlink out of the folder', async () => {
    const base = await makeTempDir('ctx-link');
    try {
      await mkdir(join(base, 'proj'));
      await writeFile(join(base, 'secret.txt'), 'OUTSIDE SECRET');
      await symlink(join(base, 'secret.txt'), join(base, 'proj', 'AGENTS.md'));
      expect(await loadAgentsMd(join(base, 'proj'))).toBeUndefined();
      await rm(join(base, 'proj', 'AGENTS.md'));
      await writeFile(join(base, 'proj', 'docs.md'), 'Inside notes.');
      await symlink('docs.md', join(base, 'proj', 'AGENTS.md'));
      expect(await loadAgentsMd(join(base, 'proj'))).toBe('Inside notes.');
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});

describe('history within a budget', () => {
  const big = 'x'.repeat(4000);
  const history: ChatMessage[] = [
    { role: 'user', content: 'first task' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'a', type: 'function', function: { name: 'read', arguments: '{}' } }],
    },
    { role: 'tool', tool_call_id: 'a', content: big },
    { role: 'assistant', content: 'done one' },
    { role: 'user', content: 'second task' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'b', type: 'function', function: { name: 'read', arguments: '{}' } }],
    },
    { role: 'tool', tool_call_id: 'b', content: big },
  ];

  it('leaves a history that fits alone', () => {
    expect(fitHistory(history, 10_000)).toEqual(history);
  });

  it('shrinks old tool outputs first and keeps the latest turn whole', () => {
    const fitted = fitHistory(history, 1_500);
    expect(fitted).toHaveLength(history.length);
    expect(fitted[2]?.content).toMatch(/older tool output shortened/);
    expect(fitted[6]?.content).toBe(big);
    expect(estimateTokens(fitted)).toBeLessThanOrEqual(1_500);
  });

  it('then drops whole old exchanges, never separating a call from its answer', () => {
    const fitted = fitHistory(history, 1_100);
    expect(fitted.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(fitted[0]?.content).toBe('second task');
  });
});

describe('one long task within a budget', () => {
  const output = (i: number): string => `output ${i} start\n${'x'.repeat(40_000)}\noutput ${i} end`;
  const history: ChatMessage[] = [{ role: 'user', content: 'task' }];
  for (let i = 0; i < 20; i++) {
    history.push({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: `c${i}`, type: 'function', function: { name: 'read_file', arguments: '{}' } },
      ],
    });
    history.push({ role: 'tool', tool_call_id: `c${i}`, content: output(i) });
  }

  it('shrinks the oldest outputs of the current turn, keeps the last two whole and every pair', () => {
    const fitted = fitHistory(history, 100_000);
    expect(estimateTokens(history)).toBeGreaterThan(100_000);
    expect(estimateTokens(fitted)).toBeLessThanOrEqual(100_000);
    expect(fitted.map((m) => m.role)).toEqual(history.map((m) => m.role));
    for (let i = 0; i < 20; i++) {
      const call = fitted[1 + 2 * i];
      const answer = fitted[2 + 2 * i];
      expect(call?.role === 'assistant' && call.tool_calls?.[0]?.id).toBe(`c${i}`);
      expect(answer?.role === 'tool' && answer.tool_call_id).toBe(`c${i}`);
      // A shrunk output keeps its first and last lines.
      expect(answer?.content).toMatch(new RegExp(`^output ${i} start[\\s\\S]*output ${i} end$`));
    }
    expect(fitted[1]?.content).toBeNull();
    expect(fitted[2]?.content).toMatch(/output shrunk to save context/);
    expect(fitted.at(-1)?.content).toBe(output(19));
    expect(fitted.at(-3)?.content).toBe(output(18));
  });
});

describe('long arguments within a budget', () => {
  it('shrinks the arguments of answered calls too, to valid JSON, keeping every pair', () => {
    const args = JSON.stringify({ path: 'a.txt', content: 'y'.repeat(200_000) });
    const history: ChatMessage[] = [{ role: 'user', content: 'write things' }];
    for (let i = 0; i < 5; i++) {
      history.push({
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: `w${i}`, type: 'function', function: { name: 'write_file', arguments: args } },
        ],
      });
      history.push({ role: 'tool', tool_call_id: `w${i}`, content: 'written' });
    }
    const fitted = fitHistory(history, 20_000);
    expect(estimateTokens(history)).toBeGreaterThan(200_000);
    expect(estimateTokens(fitted)).toBeLessThanOrEqual(20_000);
    expect(fitted.map((m) => m.role)).toEqual(history.map((m) => m.role));
    for (const message of fitted) {
      if (message.role !== 'assistant') continue;
      const text = message.tool_calls?.[0]?.function.arguments ?? '';
      expect(() => JSON.parse(text) as unknown).not.toThrow();
    }
    expect(
      JSON.parse(
        fitted[1]?.role === 'assistant' ? fitted[1].tool_calls![0]!.function.arguments : '',
      ),
    ).toEqual({
      shortened: `${args.length} characters of arguments, cut to save context; this call was answered`,
    });
  });
});

describe('a long text of the model within a budget', () => {
  it('is cut to its head and tail with a note, when nothing else is left to shrink', () => {
    const text = `start ${'t'.repeat(300_000)} end`;
    const history: ChatMessage[] = [
      { role: 'user', content: 'task' },
      {
        role: 'assistant',
        content: text,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'read', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c', content: 'ok' },
    ];
    const fitted = fitHistory(history, 8_000);
    expect(estimateTokens(fitted)).toBeLessThanOrEqual(8_000);
    expect(fitted[1]?.content).toMatch(
      /^start t+\n\[… your earlier message shortened to save context: first and last 400 characters kept, \d+ cut …\]\nt+ end$/,
    );
    expect(history[1]?.content).toBe(text);
  });
});
