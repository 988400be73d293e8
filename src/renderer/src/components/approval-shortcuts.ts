// Which keys answer the active approval card. A pure function, so what is ignored (held keys,
// typing in a field, an input method composing, shortcuts of other parts) is tested under Node.
// Keys typed into a field are text, the task box included: after sending, the waiting card takes
// the focus (approval-panel.tsx), so its keys work without the task box swallowing them.

export type Choice =
  'allow-once' | 'allow-session' | 'allow-for' | 'always' | 'edit' | 'deny' | 'note';

/** The key that answers the first pending card with each choice (shown on its button). */
export const SHORTCUT_KEYS: Readonly<Record<Choice, string>> = {
  'allow-once': 'y',
  'allow-session': 's',
  'allow-for': 'm',
  always: 'a',
  edit: 'e',
  deny: 'n',
  note: 'd',
};

const SHORTCUTS: ReadonlyMap<string, Choice> = new Map(
  (Object.entries(SHORTCUT_KEYS) as [Choice, string][]).map(([choice, key]) => [key, choice]),
);

/** The parts of a KeyboardEvent the decision reads. */
export interface ShortcutKeyEvent {
  readonly key: string;
  readonly repeat: boolean;
  readonly isComposing: boolean;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
  /** Shift+Y / Shift+N answer every card of a stack at once. */
  readonly shiftKey?: boolean;
  /** The focused element (an EventTarget); only its tag and editability are read. */
  readonly target: object | null;
}

export type ShortcutAction =
  | { readonly kind: 'choose'; readonly choice: Choice }
  /** Shift+Y or Shift+N: allow or deny every card of the stack (the one card when alone). */
  | { readonly kind: 'all'; readonly allow: boolean }
  /** Enter on the "Always allow" confirmation. */
  | { readonly kind: 'confirm-always' }
  /** Escape on the "Always allow" confirmation. */
  | { readonly kind: 'back' };

export type CardStep = 'choose' | 'note' | 'always' | 'edit';

const FIELDS = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

/** The card's answer to a key press, or null when the key is not the card's. */
export function shortcutFor(event: ShortcutKeyEvent, step: CardStep): ShortcutAction | null {
  // A held key must not answer the next card too; a key typed for a field is text.
  if (event.repeat || event.isComposing || event.key === 'Process') return null;
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  if (isField(event.target)) return null;
  switch (step) {
    case 'always':
      if (event.key === 'Escape') return { kind: 'back' };
      if (event.key === 'Enter') return { kind: 'confirm-always' };
      return null;
    case 'note':
    case 'edit':
      return null;
    case 'choose': {
      const lower = event.key.toLowerCase();
      if (event.shiftKey === true && (lower === 'y' || lower === 'n')) {
        return { kind: 'all', allow: lower === 'y' };
      }
      const choice = SHORTCUTS.get(lower);
      return choice ? { kind: 'choose', choice } : null;
    }
  }
}

/** Inputs that take no typing: Enter on the rule choices still confirms "always". */
const CHOICE_INPUTS = new Set(['radio', 'checkbox']);

function isField(target: object | null): boolean {
  if (!target) return false;
  const element = target as {
    readonly tagName?: unknown;
    readonly type?: unknown;
    readonly isContentEditable?: unknown;
  };
  const tag = typeof element.tagName === 'string' ? element.tagName.toUpperCase() : '';
  if (tag === 'INPUT' && typeof element.type === 'string' && CHOICE_INPUTS.has(element.type)) {
    return false;
  }
  return FIELDS.has(tag) || element.isContentEditable === true;
}
