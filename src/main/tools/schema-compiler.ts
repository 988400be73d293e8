// ajv and its formats, compiling one tool's parameter schema at a time. A module of its own, loaded
// by the first tool call (or the warm-up after the first model request, session-warm-up.ts) through
// registry.ts's loadArgumentValidator: ajv, fast-uri and ajv-formats are ~250 KB of code that a
// session's first request, which carries only the schemas, does not need.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv-formats ships CommonJS; depending on the loader the plugin is the module or its default.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

export interface SchemaCompiler {
  /**
   * One schema's validator. `outside`: the schema is not ours (an MCP server's), so it is checked
   * against the meta-schema first. Throws "schema is invalid: …" or ajv's compile error.
   */
  compile(schema: Record<string, unknown>, outside: boolean): ValidateFunction;
}

export function createSchemaCompiler(): SchemaCompiler {
  // strict: false because MCP schemas carry keywords ajv does not know (title, examples, ...).
  // addUsedSchema false: a tool schema's "$id" registers nothing, so one tool's schema can neither
  // clash with nor be referenced by another's (MCP servers choose their own ids).
  // validateSchema false: a schema is checked against the meta-schema only where it comes from
  // outside (an MCP server's, see `compile`). Compiling the meta-schema's validator is ~40 ms of
  // CPU that a session with only the built-in tools (schemas written here, with TypeBox) would
  // pay on its first tool call. (The registry makes this compiler at its first compile.)
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    addUsedSchema: false,
    validateSchema: false,
  });
  addFormats(ajv);
  const ownRefs: ReadonlySet<string> = new Set(Object.keys(ajv.refs));
  return {
    /**
     * Compiles one schema and lets ajv forget it at once (the function stands alone): ajv would
     * otherwise keep every schema it compiled, and an MCP server relisting its tools would grow
     * our memory without end. The root "$id" is left out of what ajv keys it by, so forgetting it
     * can never drop a schema ajv itself holds (a tool could name its schema like the
     * meta-schema).
     */
    compile(schema, outside) {
      const { $id: _id, ...key } = schema;
      try {
        // Throws "schema is invalid: …", as compile does with validateSchema on.
        if (outside) ajv.validateSchema(key, true);
        return ajv.compile(key);
      } finally {
        ajv.removeSchema(key);
        for (const ref of Object.keys(ajv.refs)) if (!ownRefs.has(ref)) delete ajv.refs[ref];
      }
    },
  };
}
