import { describe, expect, it } from 'vitest';
import {
  hasHiddenCharacters,
  visiblePieces,
  visibleText,
  type VisibleLayout,
} from './visible-text';

const ESC = '\u001b';
const BEL = '\u0007';
const ST = `${ESC}\\`;

// Everything a terminal acts on or a screen does not draw; none may survive in either layout.
const RAW =
  // eslint-disable-next-line no-control-regex -- the point of the check
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060-\u2064\u2066-\u2069\ufeff\p{Cs}]/u;

describe('visibleText: terminal escape sequences', () => {
  it.each<[string, string, string]>([
    [
      'CSI cursor up and erase (the fake-card attack)',
      `a${ESC}[30A${ESC}[Jb`,
      'a\\x1b[30A\\x1b[Jb',
    ],
    ['CSI colour', `${ESC}[31mred${ESC}[0m`, '\\x1b[31mred\\x1b[0m'],
    ['OSC 0 title, BEL', `${ESC}]0;pwned${BEL}`, '\\x1b]0;pwned\\x07'],
    ['OSC 0 title, ST', `${ESC}]0;pwned${ST}`, '\\x1b]0;pwned\\x1b\\'],
    [
      'OSC 8 link, BEL',
      `${ESC}]8;;https://evil${BEL}ok${ESC}]8;;${BEL}`,
      '\\x1b]8;;https://evil\\x07ok\\x1b]8;;\\x07',
    ],
    ['OSC 8 link, ST', `${ESC}]8;;https://evil${ST}ok`, '\\x1b]8;;https://evil\\x1b\\ok'],
    ['OSC 52 clipboard, BEL', `${ESC}]52;c;cm0gLXJm${BEL}`, '\\x1b]52;c;cm0gLXJm\\x07'],
    ['OSC 52 clipboard, ST', `${ESC}]52;c;cm0gLXJm${ST}`, '\\x1b]52;c;cm0gLXJm\\x1b\\'],
    ['DCS', `${ESC}P+q544e${ST}`, '\\x1bP+q544e\\x1b\\'],
    ['APC', `${ESC}_payload${ST}`, '\\x1b_payload\\x1b\\'],
    ['PM', `${ESC}^private${ST}`, '\\x1b^private\\x1b\\'],
    ['SOS', `${ESC}Xstring${ST}`, '\\x1bXstring\\x1b\\'],
    ['C1 8-bit CSI', '\u009b2J', '⟨U+009B⟩2J'],
    ['C1 8-bit OSC and ST', '\u009d0;t\u009c', '⟨U+009D⟩0;t⟨U+009C⟩'],
    ['C1 next line', 'a\u0085b', 'a⟨U+0085⟩b'],
    ['NUL, backspace, DEL', 'a\u0000b\u0008c\u007f', 'a\\x00b\\x08c\\x7f'],
    ['a lone CR (overwrites the line)', 'rm -rf src\rls        ', 'rm -rf src\\rls        '],
  ])('%s', (_name, input, expected) => {
    for (const layout of ['inline', 'lines'] as const) {
      const shown = visibleText(input, { layout });
      expect(shown).toBe(expected);
      expect(shown).not.toMatch(RAW);
    }
  });
});

describe('visibleText: bidi and invisible characters', () => {
  const bidi = [
    0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
  ];
  it.each(bidi.map((cp) => [cp.toString(16).toUpperCase(), cp] as const))(
    'bidi control U+%s',
    (hex, cp) => {
      const input = `ls ${String.fromCodePoint(cp)}txt.exe`;
      for (const layout of ['inline', 'lines'] as const) {
        expect(visibleText(input, { layout })).toBe(`ls ⟨U+${hex.padStart(4, '0')}⟩txt.exe`);
      }
    },
  );

  it.each<[string, string, string]>([
    ['zero-width space', 'r\u200bm', 'r⟨U+200B⟩m'],
    ['zero-width non-joiner between ASCII', 'r\u200cm', 'r⟨U+200C⟩m'],
    ['zero-width joiner between ASCII', 'r\u200dm', 'r⟨U+200D⟩m'],
    ['word joiner', 'a\u2060b', 'a⟨U+2060⟩b'],
    ['BOM', '\ufeffecho', '⟨U+FEFF⟩echo'],
    ['line separator', 'a\u2028b', 'a⟨U+2028⟩b'],
    ['paragraph separator', 'a\u2029b', 'a⟨U+2029⟩b'],
    ['soft hyphen', 'r\u00adm', 'r⟨U+00AD⟩m'],
    ['tag characters (hidden ASCII)', 'ok\u{e0069}\u{e0067}', 'ok⟨U+E0069⟩⟨U+E0067⟩'],
    ['Hangul filler', 'a\u3164b', 'a⟨U+3164⟩b'],
    ['lone high surrogate', 'a\ud800b', 'a⟨U+D800⟩b'],
    ['lone low surrogate', 'a\udc00b', 'a⟨U+DC00⟩b'],
    ['surrogates in the wrong order', '\udc00\ud800', '⟨U+DC00⟩⟨U+D800⟩'],
  ])('%s', (_name, input, expected) => {
    for (const layout of ['inline', 'lines'] as const) {
      const shown = visibleText(input, { layout });
      expect(shown).toBe(expected);
      expect(shown).not.toMatch(RAW);
    }
  });
});

describe('visibleText: layouts', () => {
  it.each<[string, string, VisibleLayout, string]>([
    ['newline and tab escaped in a command', 'ls\n\trm -rf ~', 'inline', 'ls\\n\\trm -rf ~'],
    ['newline and tab kept in lines', 'a\n\tb', 'lines', 'a\n\tb'],
    ['CRLF is one escape per character inline', 'a\r\nb', 'inline', 'a\\r\\nb'],
    ['CRLF is a line ending in lines', 'a\r\nb\r\n', 'lines', 'a\nb\n'],
    ['CR before something else still shows in lines', 'a\r\rb\n', 'lines', 'a\\r\\rb\n'],
    [
      'no-break space looks like a word break in a command',
      'rm a\u00a0b',
      'inline',
      'rm a⟨U+00A0⟩b',
    ],
    ['no-break space is ordinary prose', '10\u00a0km', 'lines', '10\u00a0km'],
    ['ideographic space inline', 'a\u3000b', 'inline', 'a⟨U+3000⟩b'],
    ['variation selector inline', '\u2764\ufe0f', 'inline', '\u2764⟨U+FE0F⟩'],
    ['variation selector in prose', '\u2764\ufe0f', 'lines', '\u2764\ufe0f'],
    ['emoji joiner in prose', '👩\u200d💻', 'lines', '👩\u200d💻'],
    ['emoji joiner in a command', '👩\u200d💻', 'inline', '👩⟨U+200D⟩💻'],
    ['Persian non-joiner in prose', 'می\u200cخواهم', 'lines', 'می\u200cخواهم'],
    ['joiner at the end of prose', 'a👩\u200d', 'lines', 'a👩⟨U+200D⟩'],
    [
      'ordinary text is unchanged',
      "printf '\\033[32m' ü → 日本",
      'inline',
      "printf '\\033[32m' ü → 日本",
    ],
  ])('%s', (_name, input, layout, expected) => {
    expect(visibleText(input, { layout })).toBe(expected);
  });
});

describe('visibleText: colours in program output', () => {
  it.each<[string, string, string]>([
    ['SGR removed', `${ESC}[1;32mok${ESC}[0m`, 'ok'],
    ['SGR with colons (truecolour)', `${ESC}[38:2::255:0:0mred${ESC}[m`, 'red'],
    ['other CSI still shown', `${ESC}[2J${ESC}[31mx`, '\\x1b[2Jx'],
    ['OSC still shown', `${ESC}]52;c;eA==${BEL}`, '\\x1b]52;c;eA==\\x07'],
    ['a bare ESC still shown', `a${ESC}`, 'a\\x1b'],
    ['an unfinished SGR shows', `${ESC}[31`, '\\x1b[31'],
  ])('%s', (_name, input, expected) => {
    expect(visibleText(input, { layout: 'lines', dropColours: true })).toBe(expected);
  });

  it('keeps colours visible when not asked to drop them', () => {
    expect(visibleText(`${ESC}[8mhidden`, { layout: 'lines' })).toBe('\\x1b[8mhidden');
  });
});

describe('visiblePieces', () => {
  it('marks each escape with its code point and keeps text runs whole', () => {
    expect(visiblePieces(`rm -rf src '${ESC}[30A'\u202e`, { layout: 'inline' })).toEqual([
      { kind: 'text', text: "rm -rf src '" },
      { kind: 'escape', text: '\\x1b', codePoint: 0x1b },
      { kind: 'text', text: "[30A'" },
      { kind: 'escape', text: '⟨U+202E⟩', codePoint: 0x202e },
    ]);
  });

  it('gives nothing for empty text and one piece for plain text', () => {
    expect(visiblePieces('', { layout: 'inline' })).toEqual([]);
    expect(visiblePieces('npm test', { layout: 'inline' })).toEqual([
      { kind: 'text', text: 'npm test' },
    ]);
  });
});

describe('hasHiddenCharacters', () => {
  it.each<[string, VisibleLayout, boolean]>([
    ['npm test', 'inline', false],
    ['a\nb', 'lines', false],
    ['a\nb', 'inline', true],
    [`ls ${ESC}[J`, 'lines', true],
    ['ls \u2066x', 'lines', true],
  ])('%j (%s) → %s', (input, layout, expected) => {
    expect(hasHiddenCharacters(input, layout)).toBe(expected);
  });
});

describe('visibleText over generated strings', () => {
  // A fixed seed: the same 2,000 strings every run, drawn mostly from the characters that matter.
  let seed = 0x9e3779b9;
  const next = (): number => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed;
  };
  const POOL = [
    ...Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)),
    ...Array.from({ length: 0x21 }, (_, i) => String.fromCharCode(0x7f + i)),
    '\u061c',
    '\u200b',
    '\u200c',
    '\u200d',
    '\u200e',
    '\u200f',
    '\u202a',
    '\u202b',
    '\u202c',
    '\u202d',
    '\u202e',
    '\u2066',
    '\u2067',
    '\u2068',
    '\u2069',
    '\ufeff',
    '\u2028',
    '\u2029',
    '\ud800',
    '\udfff',
    '👩',
    'a',
    ' ',
    '[',
    ']',
    ';',
    'm',
    '\\',
    'é',
    '日',
  ];
  const strings = Array.from({ length: 2000 }, () =>
    Array.from({ length: 1 + (next() % 24) }, () => POOL[next() % POOL.length]).join(''),
  );

  it.each(['inline', 'lines'] as const)(
    '%s: no raw control, bidi or lone surrogate survives',
    (layout) => {
      for (const input of strings) {
        for (const dropColours of [false, true]) {
          const shown = visibleText(input, { layout, dropColours });
          if (RAW.test(shown)) throw new Error(`raw character left in ${JSON.stringify(input)}`);
          if (layout === 'inline' && /[\n\t]/.test(shown))
            throw new Error(`line break left in ${JSON.stringify(input)}`);
        }
      }
    },
  );
});
