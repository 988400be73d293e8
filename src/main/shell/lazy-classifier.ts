// The command classifier (the shell parser, the program tables, the repository checks), loaded by
// the first command that is judged or shown, or by the warm-up when a session opens
// (src/main/agent/session-warm-up.ts): not by every process that builds the shell tool or a
// permission gate before its first model request.
type Classify = typeof import('./command-classifier').classifyCommand;

export const classifyCommandLazily: Classify = async (...args) => {
  const { classifyCommand } = await import('./command-classifier');
  return classifyCommand(...args);
};
