// An MCP tools/call result as the model and the trace receive it. The model gets text: the text
// blocks, every other block described in words (an image as its type and size, since tool
// messages here carry text only), and structured content as JSON when no text block already says
// the same. The trace additionally gets the images it can draw. `isError` stays an error result.
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { safeJsonStringify } from '../../shared/safe-json';
import {
  MAX_SHOWN_IMAGE_BYTES,
  MAX_SHOWN_IMAGES,
  SHOWN_IMAGE_BASE64,
  SHOWN_IMAGE_TYPES,
  type ShownImageType,
  type ToolImage,
} from '../../shared/tool-types';
import type { ToolReturn } from '../tools/tool';

export { MAX_SHOWN_IMAGE_BYTES, MAX_SHOWN_IMAGES };

export function toolReturnOf(result: CallToolResult, server: string): ToolReturn {
  const images: ToolImage[] = [];
  const parts: string[] = [];
  const content: readonly ContentBlock[] = Array.isArray(result.content) ? result.content : [];
  let imageCount = 0;
  for (const block of content) {
    if (block.type === 'image') imageCount++;
    parts.push(describeBlock(block, imageCount, images));
  }
  const structured = result.structuredContent;
  if (structured !== undefined && !textRepeats(content, structured)) {
    // A server's JSON can nest past what JSON.stringify's recursion survives.
    parts.push(`Structured content:\n${safeJsonStringify(structured, { space: 2 })}`);
  }
  const body = parts.join('\n');
  const output =
    result.isError === true
      ? `The MCP tool reported an error (server "${server}"):\n${body || '(no details)'}`
      : body || '(the tool returned no content)';
  return { output, ...(result.isError === true ? { isError: true } : {}), images };
}

function describeBlock(block: ContentBlock, index: number, images: ToolImage[]): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
      return describeImage(block.data, block.mimeType, index, images);
    case 'audio':
      return `[audio: ${block.mimeType}, ${sizeOf(block.data)}; not played]`;
    case 'resource_link': {
      const about = [block.mimeType, block.description].filter(Boolean).join('; ');
      return `[resource link: ${block.name} <${block.uri}>${about ? ` (${about})` : ''}]`;
    }
    case 'resource': {
      const resource = block.resource;
      const type = resource.mimeType ? `, ${resource.mimeType}` : '';
      if ('text' in resource && typeof resource.text === 'string') {
        return `[embedded resource <${resource.uri}>${type}]\n${resource.text}`;
      }
      const blob = 'blob' in resource && typeof resource.blob === 'string' ? resource.blob : '';
      return `[embedded resource <${resource.uri}>${type}: binary, ${sizeOf(blob)}]`;
    }
    default:
      return `[content of an unknown kind]`;
  }
}

function describeImage(data: string, mimeType: string, index: number, images: ToolImage[]): string {
  const size = sizeOf(data);
  const where = `[image ${index}: ${mimeType}, ${size}`;
  if (!isShownType(mimeType)) {
    return `${where}; not shown: only PNG, JPEG, GIF and WebP images are shown]`;
  }
  if (!SHOWN_IMAGE_BASE64.test(data) || data.length % 4 !== 0) {
    return `${where}; not shown: its data is not valid base64]`;
  }
  if (decodedBytes(data) > MAX_SHOWN_IMAGE_BYTES) {
    return `${where}; not shown: larger than ${MAX_SHOWN_IMAGE_BYTES / 1024} KB]`;
  }
  if (images.length >= MAX_SHOWN_IMAGES) {
    return `${where}; not shown: only ${MAX_SHOWN_IMAGES} images per result are shown]`;
  }
  images.push({ mimeType, data });
  return `${where}; shown to the person in the trace; this model receives it as this description]`;
}

function isShownType(mimeType: string): mimeType is ShownImageType {
  return (SHOWN_IMAGE_TYPES as readonly string[]).includes(mimeType);
}

function decodedBytes(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}

function sizeOf(base64: string): string {
  const bytes = decodedBytes(base64);
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KB`;
}

/**
 * Servers should also send structured content as text; then it is not repeated: a text block
 * that is the same JSON, or (as server-filesystem does) text blocks holding every one of its
 * values when all of them are strings.
 */
function textRepeats(content: readonly ContentBlock[], structured: unknown): boolean {
  const wanted = JSON.stringify(structured);
  const texts = content.flatMap((block) => (block.type === 'text' ? [block.text] : []));
  const sameJson = texts.some((text) => {
    try {
      return JSON.stringify(JSON.parse(text)) === wanted;
    } catch {
      return false;
    }
  });
  if (sameJson) return true;
  const leaves = leafValues(structured);
  const joined = texts.join('\n');
  return (
    leaves.length > 0 &&
    leaves.every((leaf) => typeof leaf === 'string' && leaf !== '' && joined.includes(leaf))
  );
}

function leafValues(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(leafValues);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(leafValues);
  return [value];
}
