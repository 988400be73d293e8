// A person-readable message from whatever a rejected call threw. Electron wraps errors from main
// as "Error invoking remote method 'tandem:x': Error: <message>"; the prefix means nothing to a person.
export function errorMessage(error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  return raw.replace(/^Error invoking remote method '[^']*': (?:[A-Za-z]*Error: )?/, '');
}
