// The one list of built-in tools. File, fetch and shell tools join here as they land.
import type { AnyTool } from './tool';

export function createBuiltinTools(): AnyTool[] {
  return [];
}
