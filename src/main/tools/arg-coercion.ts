// Models often send scalars as strings ("5", "true"). Coerce only where the schema asks for that
// type and the string says it unambiguously; everything else is left for ajv to reject clearly.
import { isPlainObject, schemaTypes, type JsonSchema } from './json-schema';

const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const INTEGER = /^-?\d+$/;

/** Returns a coerced copy of `value` following `schema`; never mutates the input. */
export function coerceArgs(schema: JsonSchema, value: unknown): unknown {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return coerceToAlternatives(alternatives, value);

  const types = schemaTypes(schema);
  if (typeof value === 'string') return coerceString(schema, types, value);
  if (Array.isArray(value)) return coerceArray(schema, value);
  if (isPlainObject(value)) return coerceObject(schema, value);
  return value;
}

function coerceToAlternatives(alternatives: readonly JsonSchema[], value: unknown): unknown {
  // Only coerce a string when exactly one alternative would accept it as a non-string.
  if (typeof value !== 'string') return value;
  if (alternatives.some((alt) => schemaTypes(alt).includes('string'))) return value;
  const candidates = alternatives
    .map((alt) => coerceArgs(alt, value))
    .filter((coerced) => coerced !== value);
  return candidates.length === 1 ? candidates[0] : value;
}

function coerceString(schema: JsonSchema, types: readonly string[], value: string): unknown {
  if (types.includes('string')) return value;
  const text = value.trim();
  for (const type of types) {
    switch (type) {
      case 'integer':
        if (INTEGER.test(text)) return Number(text);
        break;
      case 'number':
        if (NUMBER.test(text) && Number.isFinite(Number(text))) return Number(text);
        break;
      case 'boolean':
        if (text === 'true') return true;
        if (text === 'false') return false;
        break;
      case 'null':
        if (text === 'null') return null;
        break;
      case 'object':
      case 'array': {
        const parsed = parseJson(text);
        const fits = type === 'array' ? Array.isArray(parsed) : isPlainObject(parsed);
        if (fits) return coerceArgs(schema, parsed);
        break;
      }
    }
  }
  if (types.length === 0 && schema.enum) {
    // An untyped enum of numbers or booleans: "2" means 2 only when 2 is one of the choices.
    const match = schema.enum.find(
      (choice) => typeof choice !== 'string' && String(choice) === text,
    );
    if (match !== undefined) return match;
  }
  return value;
}

function coerceArray(schema: JsonSchema, value: readonly unknown[]): unknown[] {
  const tuple = schema.prefixItems ?? (Array.isArray(schema.items) ? schema.items : undefined);
  const items = Array.isArray(schema.items) ? undefined : (schema.items as JsonSchema | undefined);
  return value.map((item, index) => {
    const itemSchema = tuple?.[index] ?? items;
    return itemSchema ? coerceArgs(itemSchema, item) : item;
  });
}

function coerceObject(schema: JsonSchema, value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const extra = isPlainObject(schema.additionalProperties)
    ? (schema.additionalProperties as JsonSchema)
    : undefined;
  for (const [key, item] of Object.entries(value)) {
    const propertySchema = schema.properties?.[key] ?? extra;
    out[key] = propertySchema ? coerceArgs(propertySchema, item) : item;
  }
  return out;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
