// The built-in file tools, ready for the registry.
import type { AnyTool } from '../tool';
import { editFileTool } from './edit-file';
import { findFilesTool } from './find-files';
import { listDirTool } from './list-dir';
import { readFileTool } from './read-file';
import { searchTool } from './search';
import { writeFileTool } from './write-file';

export function createFileTools(): AnyTool[] {
  return [listDirTool, readFileTool, searchTool, findFilesTool, writeFileTool, editFileTool];
}
