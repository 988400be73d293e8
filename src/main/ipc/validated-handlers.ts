// The one gate every call from the window passes: a known method, and arguments that match
// src/shared/ipc-schemas.ts. Nothing reaches a handler unvalidated (DESIGN.md §1).
import type { z } from 'zod';
import { TANDEM_INVOKE_METHODS, type TandemInvokeMethod } from '../../shared/api';
import { ipcArgSchemas } from '../../shared/ipc-schemas';
import type { TandemHandlers } from './handler-types';

export class IpcValidationError extends Error {
  override readonly name = 'IpcValidationError';
}

export type InvokeDispatcher = (method: string, args: unknown) => Promise<unknown>;

function isInvokeMethod(method: unknown): method is TandemInvokeMethod {
  return (
    typeof method === 'string' && (TANDEM_INVOKE_METHODS as readonly string[]).includes(method)
  );
}

/** Validates then calls; rejects with IpcValidationError before any handler code runs. */
export function createValidatedDispatcher(handlers: TandemHandlers): InvokeDispatcher {
  return async (method, args) => {
    if (!isInvokeMethod(method)) {
      throw new IpcValidationError(`Unknown method "${String(method)}".`);
    }
    if (!Array.isArray(args)) {
      throw new IpcValidationError(`tandem.${method}: arguments must be a list.`);
    }
    const schema = ipcArgSchemas()[method];
    const arity = schema.def.items.length;
    if (args.length !== arity) {
      throw new IpcValidationError(
        `tandem.${method} expects ${arity} argument${arity === 1 ? '' : 's'}, got ${args.length}.`,
      );
    }
    const parsed = schema.safeParse(args);
    if (!parsed.success) {
      throw new IpcValidationError(
        `tandem.${method} was called with invalid arguments: ${describeIssues(parsed.error.issues)}`,
      );
    }
    // The schema above is the typed contract of this method, so the parsed tuple fits it.
    const handler = handlers[method] as (...a: readonly unknown[]) => Promise<unknown>;
    return handler(...(parsed.data as readonly unknown[]));
  };
}

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const [first, ...rest] = issue.path;
      const where =
        typeof first === 'number'
          ? `argument ${first + 1}${rest.length ? ` (${rest.map(String).join('.')})` : ''}`
          : 'arguments';
      return `${where}: ${issue.message}`;
    })
    .join('; ');
}
