// Builds the command line that runs from the judged script: every word single-quoted, the few
// allowed redirections and operators written out by Tandem. bash then has nothing left to read
// differently from the parser: no expansion, no globbing, no keyword, no alias can apply.
import type { Redirect } from './command-grammar';

export interface BuiltCommand {
  readonly argv: readonly string[];
  readonly redirects: readonly Redirect[];
  readonly inputs: readonly string[];
}

export type BuiltItem =
  | { readonly kind: 'command'; readonly command: BuiltCommand }
  | { readonly kind: 'operator'; readonly operator: string };

export function quoteWord(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

function redirectText(redirect: Redirect, input: string | undefined): string {
  switch (redirect.kind) {
    case 'duplicate':
      return redirect.text;
    case 'discard':
      return `${redirect.fd}${redirect.operator}/dev/null`;
    case 'input':
      return `${redirect.fd}<${quoteWord(input ?? redirect.target.text)}`;
  }
}

/** One line of bash; `inputs` are the judged file names of the command's `<` redirections. */
export function buildCommandLine(items: readonly BuiltItem[]): string {
  return items
    .map((item) => {
      if (item.kind === 'operator') return item.operator;
      const { argv, redirects, inputs } = item.command;
      let input = 0;
      const redirections = redirects.map((redirect) =>
        redirectText(redirect, redirect.kind === 'input' ? inputs[input++] : undefined),
      );
      return [...argv.map(quoteWord), ...redirections].join(' ');
    })
    .join(' ');
}
