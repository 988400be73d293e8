// The registry loads ajv on first use (schema-compiler.ts), not when it is imported: a session's
// first model request needs the tools' schemas, not their validator. Preparing a call before the
// validator has loaded is a programming error that says so, never a refused call or a pass.
import { Type } from '@sinclair/typebox';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { defineTool } from './tool';

const probe = defineTool({
  name: 'probe',
  description: 'test tool',
  parameters: Type.Object({ count: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
  effect: 'read',
  async execute() {
    return 'ok';
  },
});

/** A fresh copy of the registry module, as a new process would import it. */
const freshRegistry = async (): Promise<typeof import('./registry')> => {
  vi.resetModules();
  return import('./registry');
};

describe('the argument validator is loaded on first use', () => {
  beforeEach(() => vi.resetModules());

  it('gives the schemas without loading ajv', async () => {
    const { createToolRegistry } = await freshRegistry();
    const registry = createToolRegistry([probe]);
    expect(registry.definitions()[0]?.function.parameters).toMatchObject({
      type: 'object',
      required: ['count'],
    });
    expect(() => registry.prepare('probe', '{"count":1}')).toThrow(
      /argument validator is not loaded/,
    );
    expect(() => registry.schemaProblem(probe)).toThrow(/argument validator is not loaded/);
  });

  it('validates as strictly once loaded, for registries made before and after', async () => {
    const { createToolRegistry, loadArgumentValidator } = await freshRegistry();
    const before = createToolRegistry([probe]);
    await loadArgumentValidator();
    const after = createToolRegistry([probe]);
    for (const registry of [before, after]) {
      expect(registry.prepare('probe', '{"count":2}')).toMatchObject({
        ok: true,
        args: { count: 2 },
      });
      const refused = registry.prepare('probe', '{"count":0,"extra":1}');
      expect(refused.ok).toBe(false);
      expect(refused.ok ? '' : refused.message).toMatch(/invalid arguments for probe/);
      expect(registry.schemaProblem(probe)).toBeNull();
    }
  });

  it('loads once, whoever asks first', async () => {
    const { loadArgumentValidator } = await freshRegistry();
    const [a, b] = [loadArgumentValidator(), loadArgumentValidator()];
    expect(a).toBe(b);
    await a;
  });
});
