// Which paths git would ignore, for one purpose only: when the project is larger than the tracking
// cap, ignored folders (node_modules, build output) are the ones left out, and said so. Tracking
// itself covers ignored files (issue 11 item 3). Rules per folder are read once and dropped when
// that folder's .gitignore changes. Follows git: deeper files and later lines win; a path below an
// ignored folder is never reached, because ignored folders are not walked as ordinary ones.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';

export class GitignoreRules {
  private readonly levels = new Map<string, Ignore | null>();

  constructor(private readonly root: string) {}

  /** `rel` uses `/` and is relative to the project; folders are tested as folders. */
  isIgnored(rel: string, isDir: boolean): boolean {
    const parts = rel.split('/');
    let ignored = false;
    // Root exclude file first (lowest precedence), then each folder's .gitignore from the top.
    const exclude = this.level('.git/info/exclude');
    if (exclude) ignored = decide(exclude, rel, isDir, ignored);
    for (let depth = 0; depth < parts.length; depth += 1) {
      const base = parts.slice(0, depth).join('/');
      const rules = this.level(base ? `${base}/.gitignore` : '.gitignore');
      if (!rules) continue;
      ignored = decide(rules, parts.slice(depth).join('/'), isDir, ignored);
    }
    return ignored;
  }

  /** Forgets every file's rules (before a full walk). */
  clear(): void {
    this.levels.clear();
  }

  /** A .gitignore (or the exclude file) changed: read it again next time. */
  forget(relFile: string): void {
    this.levels.delete(relFile);
  }

  private level(relFile: string): Ignore | null {
    let rules = this.levels.get(relFile);
    if (rules === undefined) {
      let text: string | undefined;
      try {
        text = readFileSync(join(this.root, relFile), 'utf8');
      } catch {
        text = undefined;
      }
      rules = text === undefined ? null : ignore().add(text);
      this.levels.set(relFile, rules);
    }
    return rules;
  }
}

function decide(rules: Ignore, local: string, isDir: boolean, current: boolean): boolean {
  try {
    const result = rules.test(isDir ? `${local}/` : local);
    if (result.ignored) return true;
    if (result.unignored) return false;
  } catch {
    // Names such as "..." are not valid for the ignore package; no rule can match them.
  }
  return current;
}
