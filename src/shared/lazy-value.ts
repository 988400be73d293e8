// A value made on first use. For zod schemas above all: building one costs tens of microseconds
// per node, and the big ones (transcript events, IPC payloads, journal lines) add up to tens of
// milliseconds at start-up in a process that may never read a transcript or take an IPC call.

export function lazyValue<T>(make: () => T): () => T {
  let made: { readonly value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
