// Which folders Tandem refuses to open as a project, and why. The agent reads everything in its
// project folder without asking, so a project must be a project's own folder: never the file
// system root, the home folder or a folder around it, a system folder, or a folder holding (or
// inside) Tandem's own data. Pure: the caller passes real paths (symlinks resolved), so a link
// to /etc is judged as /etc.
import { posix, win32 } from 'node:path';

export interface FolderRuleContext {
  readonly platform: NodeJS.Platform;
  /** Real path of the person's home folder. */
  readonly home: string;
  /** Real paths of Tandem's own data folders: settings, approvals, transcripts, journals. */
  readonly dataFolders: readonly string[];
  /** Windows only: SystemRoot, ProgramFiles, ProgramFiles(x86), ProgramData, SystemDrive. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

interface SystemFolders {
  /** Refused themselves; a project folder inside one is fine (`/opt` no, `/opt/app` yes). */
  readonly exact: readonly string[];
  /** Refused with everything inside, apart from `except` and what is inside those. */
  readonly trees: readonly string[];
  readonly except: readonly string[];
}

const LINUX: SystemFolders = {
  exact: ['/home', '/opt', '/srv', '/mnt', '/media', '/tmp', '/var/tmp', '/var/www'],
  trees: [
    '/etc',
    '/usr',
    '/bin',
    '/sbin',
    '/lib',
    '/lib32',
    '/lib64',
    '/libx32',
    '/boot',
    '/dev',
    '/proc',
    '/sys',
    '/run',
    '/var',
    '/root',
    '/snap',
    '/nix',
    '/lost+found',
  ],
  // Web roots and the persistent temp folder are where people keep work under /var.
  except: ['/var/www', '/var/tmp'],
};

// On macOS /etc, /tmp and /var are links into /private; real paths arrive with /private.
const MAC: SystemFolders = {
  exact: ['/Users', '/Volumes', '/Applications', '/opt', '/private', '/private/tmp', '/tmp'],
  trees: [
    '/System',
    '/Library',
    '/bin',
    '/sbin',
    '/usr',
    '/dev',
    '/cores',
    '/etc',
    '/var',
    '/private/etc',
    '/private/var',
  ],
  // Per-user temporary folders (mkdtemp) live here.
  except: ['/private/var/folders', '/private/tmp'],
};

function windowsFolders(env: FolderRuleContext['env'] = {}): SystemFolders {
  const drive = env.SystemDrive || 'C:';
  return {
    exact: [`${drive}\\Users`],
    trees: [
      env.SystemRoot || `${drive}\\Windows`,
      env.ProgramFiles || `${drive}\\Program Files`,
      env['ProgramFiles(x86)'] || `${drive}\\Program Files (x86)`,
      env.ProgramData || `${drive}\\ProgramData`,
      `${drive}\\$Recycle.Bin`,
      `${drive}\\System Volume Information`,
    ],
    except: [],
  };
}

/** Why `real` may not be a project folder, or null when it may. */
export function projectFolderRefusal(real: string, ctx: FolderRuleContext): string | null {
  const win = ctx.platform === 'win32';
  const path = win ? win32 : posix;
  // Windows paths compare without case; a trailing separator never matters.
  const norm = (p: string): string => {
    const resolved = path.resolve(p);
    return win ? resolved.toLowerCase() : resolved;
  };
  const inside = (root: string, candidate: string): boolean => {
    const r = norm(root);
    const c = norm(candidate);
    if (c === r) return true;
    return c.startsWith(r.endsWith(path.sep) ? r : r + path.sep);
  };
  const same = (a: string, b: string): boolean => norm(a) === norm(b);

  if (same(path.parse(path.resolve(real)).root, real)) {
    return 'it is the root of a file system';
  }
  const home = ctx.home && path.resolve(ctx.home);
  if (home && same(home, real)) {
    return 'it is your home folder; open the folder of one project inside it instead';
  }
  if (home && inside(real, home)) return `it contains your home folder (${home})`;

  const system = win ? windowsFolders(ctx.env) : ctx.platform === 'darwin' ? MAC : LINUX;
  const exact = system.exact.find((e) => same(e, real));
  if (exact) return `${exact} is a system folder; open the folder of one project inside it instead`;
  // Projects inside the person's own home are fine wherever it lives (for root it is /root).
  const except = home ? [...system.except, home] : system.except;
  const tree = system.trees.find((t) => inside(t, real));
  if (tree && !except.some((e) => inside(e, real))) {
    return same(tree, real)
      ? `${tree} is a system folder`
      : `it is inside ${tree}, a system folder`;
  }

  for (const data of ctx.dataFolders) {
    const why =
      'Tandem keeps its settings, approvals, transcripts and compiled code there, and the agent must not read or change them';
    if (same(real, data)) return `it is Tandem's own data folder: ${why}`;
    if (inside(real, data)) return `it contains Tandem's own data folder (${data}): ${why}`;
    if (inside(data, real)) return `it is inside Tandem's own data folder (${data}): ${why}`;
  }
  return null;
}
