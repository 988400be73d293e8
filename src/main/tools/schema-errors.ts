// Turns ajv's errors into sentences a model can act on: which field, what was expected, what came.
import type { ErrorObject } from 'ajv';

export function describeSchemaErrors(errors: readonly ErrorObject[], args: unknown): string[] {
  const lines = errors.map((error) => describeOne(error, args));
  return [...new Set(lines)];
}

function describeOne(error: ErrorObject, args: unknown): string {
  const field = fieldName(error.instancePath);
  const got = describeValue(valueAt(args, error.instancePath));
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `missing required field "${joinField(field, String(params.missingProperty))}"`;
    case 'additionalProperties':
      return `unexpected field "${joinField(field, String(params.additionalProperty))}" (not in the schema)`;
    case 'type':
      return `${field}: expected ${String(params.type)}, got ${got}`;
    case 'enum': {
      const allowed = (params.allowedValues as unknown[] | undefined) ?? [];
      return `${field}: expected one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}, got ${got}`;
    }
    case 'const':
      return `${field}: expected ${JSON.stringify(params.allowedValue)}, got ${got}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${field}: expected a number ${String(params.comparison)} ${String(params.limit)}, got ${got}`;
    case 'minLength':
    case 'maxLength':
      return `${field}: expected a string ${error.keyword === 'minLength' ? 'of at least' : 'of at most'} ${String(params.limit)} characters, got ${got}`;
    case 'minItems':
    case 'maxItems':
      return `${field}: expected ${error.keyword === 'minItems' ? 'at least' : 'at most'} ${String(params.limit)} items, got ${got}`;
    default:
      return `${field}: ${error.message ?? 'is invalid'}, got ${got}`;
  }
}

function fieldName(instancePath: string): string {
  if (instancePath === '') return 'arguments';
  return instancePath
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
    .join('')
    .replace(/^\./, '');
}

function joinField(parent: string, child: string): string {
  return parent === 'arguments' ? child : `${parent}.${child}`;
}

function valueAt(root: unknown, instancePath: string): unknown {
  if (instancePath === '') return root;
  let current: unknown = root;
  for (const raw of instancePath.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length} items`;
  if (typeof value === 'object') return 'an object';
  const json = JSON.stringify(value);
  const shown = json.length > 80 ? `${json.slice(0, 77)}...` : json;
  return `${typeof value} ${shown}`;
}
