import { describe, expect, it } from 'vitest';
import { shortcutFor, type CardStep, type ShortcutKeyEvent } from './approval-shortcuts';

const body = { tagName: 'BODY', isContentEditable: false };

function key(k: string, extra: Partial<ShortcutKeyEvent> = {}): ShortcutKeyEvent {
  return {
    key: k,
    repeat: false,
    isComposing: false,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    target: body,
    ...extra,
  };
}

describe('approval card shortcuts', () => {
  it.each<[string, ShortcutKeyEvent, CardStep, ReturnType<typeof shortcutFor>]>([
    ['y allows once', key('y'), 'choose', { kind: 'choose', choice: 'allow-once' }],
    ['Y (shift) allows once', key('Y'), 'choose', { kind: 'choose', choice: 'allow-once' }],
    ['n denies', key('n'), 'choose', { kind: 'choose', choice: 'deny' }],
    ['a asks for "always"', key('a'), 'choose', { kind: 'choose', choice: 'always' }],
    ['an unknown key', key('x'), 'choose', null],
    ['a held key (auto-repeat)', key('y', { repeat: true }), 'choose', null],
    ['a key while composing', key('n', { isComposing: true }), 'choose', null],
    ['the IME process key', key('Process'), 'choose', null],
    ['ctrl+y', key('y', { ctrlKey: true }), 'choose', null],
    ['cmd+a', key('a', { metaKey: true }), 'choose', null],
    ['alt+n', key('n', { altKey: true }), 'choose', null],
    ['typing in an input', key('y', { target: { tagName: 'INPUT' } }), 'choose', null],
    ['typing in a textarea', key('n', { target: { tagName: 'TEXTAREA' } }), 'choose', null],
    ['a key in a select', key('s', { target: { tagName: 'SELECT' } }), 'choose', null],
    [
      'typing in an editable element',
      key('y', { target: { tagName: 'DIV', isContentEditable: true } }),
      'choose',
      null,
    ],
    ['no target', key('y', { target: null }), 'choose', { kind: 'choose', choice: 'allow-once' }],
    ['Enter confirms "always"', key('Enter'), 'always', { kind: 'confirm-always' }],
    ['Escape goes back', key('Escape'), 'always', { kind: 'back' }],
    ['a held Enter does not confirm', key('Enter', { repeat: true }), 'always', null],
    ['y on the confirmation', key('y'), 'always', null],
    [
      'Enter on a picked rule choice confirms "always"',
      key('Enter', { target: { tagName: 'INPUT', type: 'radio' } }),
      'always',
      { kind: 'confirm-always' },
    ],
    [
      'y on a radio button',
      key('y', { target: { tagName: 'INPUT', type: 'radio' } }),
      'always',
      null,
    ],
    [
      'Enter in a text input',
      key('Enter', { target: { tagName: 'INPUT', type: 'text' } }),
      'always',
      null,
    ],
    ['keys while writing a note', key('y'), 'note', null],
    [
      'y in the task box is text, even while it is empty',
      key('y', { target: { tagName: 'TEXTAREA', dataset: { composer: 'empty' } } }),
      'choose',
      null,
    ],
    [
      'Shift+Y allows the whole stack',
      key('Y', { shiftKey: true }),
      'choose',
      { kind: 'all', allow: true },
    ],
    [
      'Shift+N denies the whole stack',
      key('N', { shiftKey: true }),
      'choose',
      { kind: 'all', allow: false },
    ],
  ])('%s', (_name, event, step, expected) => {
    expect(shortcutFor(event, step)).toEqual(expected);
  });
});
