import { describe, expect, it } from 'vitest';
import { buildSystemPrompt } from './system-prompt';

describe('system prompt', () => {
  const input = {
    folder: '/work/proj',
    platform: 'linux 6.1',
    toolNames: ['shell', 'read_file', 'edit_file'],
    date: '2026-11-30',
    instructions: { file: 'CLAUDE.md', text: 'Run `make check` before you finish.' },
  };

  it('names the folder, the OS, the tools in a fixed order and the project instructions', () => {
    const prompt = buildSystemPrompt(input);
    expect(prompt).toContain('Project folder: /work/proj');
    expect(prompt).toContain('Operating system: linux 6.1');
    expect(prompt).toContain('Date: 2026-11-30');
    expect(prompt).toContain('Tools: edit_file, read_file, shell.');
    expect(prompt).toContain(
      "The project's CLAUDE.md (the maintainers' instructions for agents):\n\nRun `make check` before you finish.",
    );
  });

  it('is the same bytes for the same inputs, whatever order the tools came in', () => {
    const again = buildSystemPrompt({ ...input, toolNames: ['edit_file', 'shell', 'read_file'] });
    expect(again).toBe(buildSystemPrompt(input));
  });

  it('leaves out the instructions block when there are none', () => {
    const { instructions: _none, ...bare } = input;
    expect(buildSystemPrompt(bare)).not.toContain('instructions for agents');
  });
});
