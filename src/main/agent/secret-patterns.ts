// The secret shapes tool output is scanned for before the model sees it (issue 10, "Secrets stay
// out of the model's view"). Each is an RE2 pattern (re2js: linear time whatever the input, so a
// hostile file cannot stall the scan), a few literal hints that must occur for it to be tried at
// all, and an optional check on what matched. Where `group` is set, only that part is masked
// (`API_KEY=` stays readable, the value goes).

export interface SecretPattern {
  /** Stable id, used in tests and the trace. */
  readonly id: string;
  /** What the person and the model read: "[secret masked: <label>, N chars]". */
  readonly label: string;
  /** RE2 syntax; flags inline (`(?i)`, `(?m)`). */
  readonly source: string;
  /** Tried only when the text contains one of these (compared in lower case). */
  readonly hints: readonly string[];
  /** Tried only on the lines that contain a hint (for shapes that are common everywhere). */
  readonly perLine?: boolean;
  /** The capture group holding the secret itself; the whole match when absent. */
  readonly group?: number;
  /**
   * The secret is the value written right after the match (`NAME=` then `value`, `"value"` or
   * `'value'`), read by valueAfter(): the match itself stays short, so a rejected name never
   * swallows a line in which a real secret follows.
   */
  readonly valueAfter?: boolean;
  /** Rejects a match that is not a secret after all (a placeholder, a variable reference). */
  readonly accept?: (secret: string, match: readonly (string | null)[]) => boolean;
  /** A label that depends on the match (the variable's name). */
  readonly labelFor?: (match: readonly (string | null)[]) => string;
}

const BASE64_RUN = /[A-Za-z0-9+/]/g;

/** A word that marks a value as an example rather than a secret, wherever it appears. */
const PLACEHOLDER_WORDS = [
  'example',
  'placeholder',
  'your_',
  'your-',
  'yourkey',
  'your key',
  'redacted',
  'dummy',
  'changeme',
  'xxxx',
  '****',
  '....',
  '…',
  '<',
  '>',
  '${',
  '{{',
  '$(',
  '%s',
  'secret masked',
];

/** Values people write where a real password would go: these are shown, not masked. */
const PLACEHOLDER_VALUES = new Set([
  'password',
  'passwd',
  'pass',
  'secret',
  'token',
  'none',
  'null',
  'nil',
  'true',
  'false',
  'yes',
  'no',
  'undefined',
  'empty',
  'changeme',
  'required',
  'optional',
  'string',
]);

export function isPlaceholder(value: string): boolean {
  const lower = value.toLowerCase();
  if (PLACEHOLDER_VALUES.has(lower.replace(/^['"]|['"]$/g, ''))) return true;
  if (PLACEHOLDER_WORDS.some((word) => lower.includes(word))) return true;
  // One character over and over (`aaaaaaaa`, `00000000`).
  return value.length > 0 && value.split('').every((c) => c === value[0]);
}

const hasDigit = (s: string): boolean => /[0-9]/.test(s);
const hasUpper = (s: string): boolean => /[A-Z]/.test(s);
const hasLower = (s: string): boolean => /[a-z]/.test(s);
const isHex = (s: string): boolean => /^[0-9a-fA-F]+$/.test(s);

/** Random-looking: digits and letters mixed, not words joined by dashes (`sk-learn-tutorial-x`). */
function looksRandom(token: string): boolean {
  if (isPlaceholder(token)) return false;
  if (!hasDigit(token) || !(hasUpper(token) || hasLower(token))) return false;
  return hasUpper(token) || (isHex(token.replace(/[-_]/g, '')) && token.length >= 32);
}

function notPlaceholder(secret: string): boolean {
  return !isPlaceholder(secret);
}

/** A secret name holds one of these (lower case): the lines worth reading for `NAME=value`. */
const SECRET_NAME_WORDS: readonly string[] = [
  'key',
  'token',
  'secret',
  'pass',
  'pwd',
  'auth',
  'credential',
];

/** Names whose value is a secret: *_KEY, *_TOKEN, *_SECRET, PASSWORD and the like. */
export function isSecretName(name: string): boolean {
  const lower = name.toLowerCase().replace(/[-.]/g, '_');
  if (
    /(secret|password|passwd|passphrase|token|credential|private_key|api_?key|access_?key)/.test(
      lower,
    )
  ) {
    return !/(_file|_path|_url|_uri|_name|_id|_type|_ttl|_expiry|_expires|_length|_count|_header)$/.test(
      lower,
    );
  }
  return /(^|_)(key|pwd|pass|auth)$/.test(lower) || lower.endsWith('key');
}

function isPasswordName(name: string): boolean {
  return /(password|passwd|passphrase|pwd|pass$)/i.test(name);
}

/** A value written in code that names where the secret comes from, not the secret. */
function isReference(value: string): boolean {
  if (/[()[\]{}]/.test(value)) return true;
  if (/^\$[A-Za-z_]/.test(value)) return true;
  // process.env.KEY, settings.api_key, os.environ
  return /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)+,?$/.test(value);
}

function acceptAssignment(value: string, match: readonly (string | null)[]): boolean {
  const name = match[1] ?? '';
  if (!isSecretName(name) || value === '' || isPlaceholder(value) || isReference(value)) {
    return false;
  }
  if (/^https?:\/\/[^@]*$/i.test(value)) return false; // an address; credentials in URLs have their own shape
  if (isPasswordName(name)) return value.length >= 3;
  if (/^\d+$/.test(value)) return false; // a number of seconds, a count
  return value.length >= 8 && (hasDigit(value) || value.length >= 16);
}

export const SECRET_PATTERNS: readonly SecretPattern[] = [
  {
    id: 'private-key',
    label: 'private key',
    // The whole block, END line included; `\n` escapes too (a key inside JSON).
    source:
      '-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:\\\\[rn]|[\\s:,A-Za-z0-9+/=.-])*?-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----',
    hints: ['private key'],
    accept: (secret) => (secret.match(BASE64_RUN)?.length ?? 0) >= 80 && !secret.includes('...'),
  },
  {
    id: 'private-key-cut',
    label: 'private key (cut short)',
    // A block whose end was cut off (output bounds): the header and every base64 line after it.
    source:
      '-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:\\\\[rn]|[A-Za-z0-9+/=\\r\\n])+',
    hints: ['private key'],
    accept: (secret) => (secret.match(BASE64_RUN)?.length ?? 0) >= 80,
  },
  {
    id: 'gcp-service-account',
    label: 'service account private key',
    source: '"private_key"\\s*:\\s*"((?:[^"\\\\\\r\\n]|\\\\.){40,})"',
    hints: ['"private_key"'],
    group: 1,
    accept: notPlaceholder,
  },
  {
    id: 'aws-access-key',
    label: 'AWS access key',
    source: '\\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\\b',
    hints: ['akia', 'asia', 'abia', 'acca'],
    accept: notPlaceholder,
  },
  {
    id: 'azure-storage-key',
    label: 'Azure storage key',
    source: '(?i)AccountKey=([A-Za-z0-9+/]{40,}={0,2})',
    hints: ['accountkey='],
    group: 1,
    accept: notPlaceholder,
  },
  {
    id: 'anthropic-key',
    label: 'Anthropic API key',
    source: '\\bsk-ant-(?:api|admin|sid)[0-9]{2}-[A-Za-z0-9_-]{20,}',
    hints: ['sk-ant-'],
    accept: notPlaceholder,
  },
  {
    id: 'openrouter-key',
    label: 'OpenRouter API key',
    source: '\\bsk-or-v1-[a-f0-9]{64}\\b',
    hints: ['sk-or-v1-'],
    accept: notPlaceholder,
  },
  {
    id: 'openai-key',
    label: 'API key (sk-…)',
    // OpenAI (sk-, sk-proj-, sk-svcacct-, sk-admin-), DeepSeek and the many that copied the shape.
    source: '\\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}',
    hints: ['sk-'],
    accept: (secret) => looksRandom(secret.replace(/^sk-(?:proj-|svcacct-|admin-|None-)?/, '')),
  },
  {
    id: 'stripe-key',
    label: 'Stripe secret key',
    source: '\\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{20,}',
    hints: ['_live_', '_test_'],
    accept: notPlaceholder,
  },
  {
    id: 'github-token',
    label: 'GitHub token',
    source: '\\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})',
    hints: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
    accept: notPlaceholder,
  },
  {
    id: 'gitlab-token',
    label: 'GitLab token',
    source: '\\bgl(?:pat|dt|ptt|rt)-[A-Za-z0-9_-]{20,}',
    hints: ['glpat-', 'gldt-', 'glptt-', 'glrt-'],
    accept: notPlaceholder,
  },
  {
    id: 'slack-token',
    label: 'Slack token',
    source: '\\bxox[abposr]-[A-Za-z0-9-]{10,}',
    hints: ['xoxa-', 'xoxb-', 'xoxp-', 'xoxo-', 'xoxs-', 'xoxr-'],
    accept: (secret) => hasDigit(secret) && notPlaceholder(secret),
  },
  {
    id: 'slack-webhook',
    label: 'Slack webhook',
    source: 'https://hooks\\.slack\\.com/services/T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/[A-Za-z0-9]{16,}',
    hints: ['hooks.slack.com'],
    accept: notPlaceholder,
  },
  {
    id: 'google-api-key',
    label: 'Google API key',
    source: '\\bAIza[0-9A-Za-z_-]{35}',
    hints: ['aiza'],
    accept: notPlaceholder,
  },
  {
    id: 'huggingface-token',
    label: 'Hugging Face token',
    source: '\\bhf_[A-Za-z0-9]{30,}',
    hints: ['hf_'],
    accept: (secret) => looksRandom(secret.slice(3)),
  },
  {
    id: 'groq-key',
    label: 'Groq API key',
    source: '\\bgsk_[A-Za-z0-9]{40,}',
    hints: ['gsk_'],
    accept: notPlaceholder,
  },
  {
    id: 'npm-token',
    label: 'npm token',
    source: '\\bnpm_[A-Za-z0-9]{36}\\b',
    hints: ['npm_'],
    accept: (secret) => looksRandom(secret.slice(4)),
  },
  {
    id: 'npmrc-auth',
    label: 'registry auth token',
    source: ':_auth(?:Token)?\\s*=\\s*([^\\s]{8,})',
    hints: [':_auth'],
    group: 1,
    accept: (secret) => notPlaceholder(secret) && !isReference(secret),
  },
  {
    id: 'pypi-token',
    label: 'PyPI token',
    source: '\\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}',
    hints: ['pypi-ageichlwas5vcmc'],
  },
  {
    id: 'digitalocean-token',
    label: 'DigitalOcean token',
    source: '\\bdo[por]_v1_[a-f0-9]{64}\\b',
    hints: ['dop_v1_', 'doo_v1_', 'dor_v1_'],
  },
  {
    id: 'sendgrid-key',
    label: 'SendGrid API key',
    source: '\\bSG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}\\b',
    hints: ['sg.'],
  },
  {
    id: 'shopify-token',
    label: 'Shopify token',
    source: '\\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\\b',
    hints: ['shpat_', 'shpss_', 'shpca_', 'shppa_'],
  },
  {
    id: 'telegram-bot-token',
    label: 'Telegram bot token',
    source: '\\b[0-9]{8,10}:AA[A-Za-z0-9_-]{33}\\b',
    hints: [':aa'],
  },
  {
    id: 'jwt',
    label: 'JSON web token',
    source: '\\beyJ[A-Za-z0-9_-]{10,}\\.eyJ[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]*',
    hints: ['eyj'],
  },
  {
    id: 'bearer-token',
    label: 'bearer token',
    source: '(?i)\\bbearer[ \\t]+([A-Za-z0-9._~+/-]{16,}=*)',
    hints: ['bearer'],
    perLine: true,
    group: 1,
    accept: (secret) => hasDigit(secret) && notPlaceholder(secret),
  },
  {
    id: 'basic-auth',
    label: 'basic auth credentials',
    source: '(?i)\\bauthorization:[ \\t]*basic[ \\t]+([A-Za-z0-9+/]{8,}={0,2})',
    hints: ['authorization:'],
    perLine: true,
    group: 1,
    accept: notPlaceholder,
  },
  {
    id: 'url-password',
    label: 'password in a URL',
    source: '\\b[A-Za-z][A-Za-z0-9+.-]{1,20}://[^\\s/:@"\'<>]{1,100}:([^\\s/@"\'<>]{3,200})@',
    hints: ['@'],
    perLine: true,
    group: 1,
    accept: (secret) => notPlaceholder(secret) && !/^\$/.test(secret),
  },
  {
    id: 'json-field',
    label: 'secret value',
    // `"client_secret": "value"` anywhere, minified JSON included.
    source: '"([A-Za-z_][A-Za-z0-9_.-]{0,100})"[ \\t]*:[ \\t]*',
    hints: SECRET_NAME_WORDS,
    perLine: true,
    valueAfter: true,
    accept: acceptAssignment,
    labelFor: (match) => `value of ${match[1] ?? 'a secret field'}`,
  },
  {
    id: 'env-assignment',
    label: 'secret value',
    // `NAME=value`, `export NAME="value"`, `name: value`, `- NAME=value`, `-e NAME=value`,
    // `?access_token=value`: at a line's start (after `cat -n`/`grep -n` prefixes too) or a word's.
    source:
      '(?m)(?:^|[\\s;,:{(?&])(?:-[ \\t]+)?(?:export[ \\t]+)?["\']?([A-Za-z_][A-Za-z0-9_.-]{0,100})["\']?[ \\t]*[=:][ \\t]*',
    hints: SECRET_NAME_WORDS,
    perLine: true,
    valueAfter: true,
    accept: acceptAssignment,
    labelFor: (match) => `value of ${match[1] ?? 'a secret variable'}`,
  },
];

/**
 * How far a value after `NAME=` is read before it is judged: bounded, so text built of thousands
 * of `KEY=` costs little. An accepted value longer than this is masked to its real end.
 */
export const MAX_VALUE_CHARS = 512;

/**
 * The value written at `at`: inside quotes when it opens with one (up to the closing quote on the
 * same line, `\"` escapes kept), else up to whitespace, a quote, `#`, `,` or `;`. Positions are
 * where the value itself starts and ends (quotes excluded); undefined when there is none.
 */
export function valueAfter(
  text: string,
  at: number,
  max: number = MAX_VALUE_CHARS,
): { start: number; end: number; cut: boolean } | undefined {
  const quote = text[at];
  const limit = Math.min(text.length, at + 1 + max);
  if (quote === '"' || quote === "'") {
    for (let i = at + 1; i < limit; i++) {
      const c = text[i];
      if (c === '\n' || c === '\r') return undefined;
      if (c === '\\' && quote === '"') {
        i++;
        continue;
      }
      if (c === quote) return { start: at + 1, end: i, cut: false };
    }
    return limit < text.length ? { start: at + 1, end: limit, cut: true } : undefined;
  }
  let end = at;
  while (end < limit && !/[\s"'#,;]/.test(text[end] as string)) end++;
  return end > at ? { start: at, end, cut: end === limit && limit < text.length } : undefined;
}
