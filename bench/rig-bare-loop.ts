// The bare loop the rig compares Tandem with: the same `openai` SDK and streamed turns against the
// same server, the tools done directly with fs and bash, no checks, no journal, no transcript.
import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/index';

const fn = (name: string, props: Record<string, unknown>): ChatCompletionTool => ({
  type: 'function',
  function: { name, parameters: { type: 'object', properties: props } },
});
const TOOLS = [
  fn('list_dir', { path: { type: 'string' } }),
  fn('read_file', { path: { type: 'string' } }),
  fn('write_file', { path: { type: 'string' }, content: { type: 'string' } }),
  fn('shell', { command: { type: 'string' } }),
];

function bash(command: string, cwd: string): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn('/bin/bash', ['-c', command], { cwd });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => resolve(`${out}exit ${code}`));
  });
}

async function runTool(name: string, args: Record<string, string>, cwd: string): Promise<string> {
  const at = join(cwd, args.path ?? '.');
  if (name === 'list_dir') return (await readdir(at)).sort().join('\n');
  if (name === 'read_file')
    return (await readFile(at, 'utf8'))
      .split('\n')
      .map((l, i) => `${i + 1}\t${l}`)
      .join('\n');
  if (name === 'write_file') return (await writeFile(at, args.content ?? ''), 'written');
  if (name === 'shell') return bash(args.command ?? '', cwd);
  return `unknown tool ${name}`;
}

/** Plays the task to the model's final answer; returns the number of model turns. */
export async function bareLoop(baseUrl: string, cwd: string, task: string): Promise<number> {
  const client = new OpenAI({ baseURL: baseUrl, apiKey: 'bench' });
  const messages: ChatCompletionMessageParam[] = [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: task },
  ];
  for (let turn = 1; ; turn++) {
    const stream = await client.chat.completions.create({
      model: 'scripted-model',
      messages,
      tools: TOOLS,
      stream: true,
    });
    let text = '';
    const calls: { id: string; name: string; args: string }[] = [];
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta;
      text += delta?.content ?? '';
      for (const part of delta?.tool_calls ?? []) {
        const call = (calls[part.index] ??= { id: '', name: '', args: '' });
        call.id += part.id ?? '';
        call.name += part.function?.name ?? '';
        call.args += part.function?.arguments ?? '';
      }
    }
    messages.push({
      role: 'assistant',
      content: text,
      ...(calls.length
        ? {
            tool_calls: calls.map((c) => ({
              id: c.id,
              type: 'function' as const,
              function: { name: c.name, arguments: c.args },
            })),
          }
        : {}),
    });
    if (calls.length === 0) return turn;
    for (const call of calls) {
      const output = await runTool(call.name, JSON.parse(call.args) as Record<string, string>, cwd);
      messages.push({ role: 'tool', tool_call_id: call.id, content: output });
    }
  }
}
