// Syntax highlighting for code in answers: lowlight (highlight.js grammars as a syntax tree), so
// the result is drawn as React elements, never as an HTML string. A chosen handful of languages
// keeps the bundle small: highlight.js core with these 17 grammars is ~90 KB minified, where
// shiki with the same languages was ~1.6 MB (measured with esbuild; see BENCHMARKS.md).
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import type { Root } from 'hast';
import { createLowlight } from 'lowlight';

const lowlight = createLowlight({
  bash,
  c,
  cpp,
  css,
  diff,
  go,
  java,
  javascript,
  json,
  markdown,
  python,
  rust,
  shell,
  sql,
  typescript,
  xml,
  yaml,
});

/** Longest code block that is highlighted; longer ones are shown plain (still fast to draw). */
const MAX_HIGHLIGHT_CHARS = 100_000;

/** The language a fence names (`ts`, `sh`, `html`…), if it is one of ours; null otherwise. */
export function knownLanguage(fence: string | undefined): string | null {
  if (!fence) return null;
  const name = fence.toLowerCase();
  return lowlight.registered(name) ? name : null;
}

/** The code as a hast tree with `hljs-*` classes, or null to show it plain. */
export function highlightCode(code: string, language: string | null): Root | null {
  if (!language || code.length > MAX_HIGHLIGHT_CHARS) return null;
  try {
    return lowlight.highlight(language, code);
  } catch {
    return null;
  }
}
