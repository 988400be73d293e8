// A project's own `.mcp.json`: read from the folder root, hashed, and used only when the person
// accepted exactly this content (Gemini CLI's trusted-folder idea, per file content). A changed
// file is pending again, with the earlier acceptance noted, so the dialog can say "changed".
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProjectMcpStatus } from '../../shared/mcp-types';
import {
  contentHash,
  parseMcpConfigText,
  proposedServer,
  type NamedServerSpec,
} from './mcp-config';
import type { ProjectMcpSettings } from './mcp-stores';

export const PROJECT_MCP_FILE = '.mcp.json';
/** A larger file is refused: nobody reviews 256 KB of server definitions in a dialog. */
export const MAX_PROJECT_MCP_BYTES = 256 * 1024;

export interface ProjectMcpFile {
  readonly status: ProjectMcpStatus;
  /** The servers, when the file parsed (whether or not it is accepted). */
  readonly servers: readonly NamedServerSpec[];
}

/**
 * The project's settings once `hash` is accepted. Content other than the last accepted starts
 * with no choices: a server's name may now stand for another program, which must not inherit
 * the trust, project writes or network the person gave to the one they reviewed.
 */
export function withAcceptedHash(settings: ProjectMcpSettings, hash: string): ProjectMcpSettings {
  if (settings.acceptedHash === hash) return settings;
  return { acceptedHash: hash, choices: {} };
}

export async function readProjectMcpFile(
  folder: string,
  acceptedHash: string | null,
): Promise<ProjectMcpFile> {
  const path = join(folder, PROJECT_MCP_FILE);
  let text: string;
  try {
    text = await readSmallFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { status: { kind: 'none' }, servers: [] };
    return {
      status: { kind: 'invalid', reason: `${PROJECT_MCP_FILE}: ${(error as Error).message}` },
      servers: [],
    };
  }
  const hash = contentHash(text);
  const parsed = parseMcpConfigText(text, PROJECT_MCP_FILE);
  if ('error' in parsed) return { status: { kind: 'invalid', reason: parsed.error }, servers: [] };
  const accepted = acceptedHash === hash;
  return {
    status: {
      kind: accepted ? 'accepted' : 'pending',
      hash,
      changed: !accepted && acceptedHash !== null,
      servers: parsed.servers.map((server) => proposedServer(server, 'shown')),
      problems: parsed.problems,
    },
    servers: parsed.servers,
  };
}

async function readSmallFile(path: string): Promise<string> {
  // Non-blocking, so a FIFO named .mcp.json cannot hang the folder's opening.
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new Error('is not a regular file');
    if (stat.size > MAX_PROJECT_MCP_BYTES) {
      throw new Error(`is larger than ${MAX_PROJECT_MCP_BYTES / 1024} KB`);
    }
    const buffer = Buffer.alloc(MAX_PROJECT_MCP_BYTES + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > MAX_PROJECT_MCP_BYTES) {
      throw new Error(`is larger than ${MAX_PROJECT_MCP_BYTES / 1024} KB`);
    }
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}
