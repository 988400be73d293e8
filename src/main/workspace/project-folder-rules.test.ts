import { describe, expect, it } from 'vitest';
import { projectFolderRefusal, type FolderRuleContext } from './project-folder-rules';

const LINUX: FolderRuleContext = {
  platform: 'linux',
  home: '/home/ana',
  dataFolders: ['/home/ana/.config/Tandem', '/home/ana/.local/share/tandem'],
};
const LINUX_ROOT: FolderRuleContext = { ...LINUX, home: '/root', dataFolders: [] };
const MAC: FolderRuleContext = {
  platform: 'darwin',
  home: '/Users/ana',
  dataFolders: ['/Users/ana/Library/Application Support/Tandem'],
};
const WINDOWS: FolderRuleContext = {
  platform: 'win32',
  home: 'C:\\Users\\ana',
  dataFolders: ['C:\\Users\\ana\\AppData\\Roaming\\Tandem'],
  env: { SystemRoot: 'C:\\Windows', SystemDrive: 'C:' },
};

describe('projectFolderRefusal', () => {
  it.each([
    // [context, folder, expected refusal (a fragment), or null when it may be a project]
    [LINUX, '/', 'the root of a file system'],
    [LINUX, '/home/ana', 'your home folder'],
    [LINUX, '/home/ana/', 'your home folder'],
    [LINUX, '/home', 'contains your home folder'],
    [LINUX, '/etc', '/etc is a system folder'],
    [LINUX, '/etc/ssh', 'inside /etc, a system folder'],
    [LINUX, '/usr/local/src/app', 'inside /usr, a system folder'],
    [LINUX, '/proc/self', 'inside /proc'],
    [LINUX, '/sys', '/sys is a system folder'],
    [LINUX, '/dev/shm', 'inside /dev'],
    [LINUX, '/boot', '/boot is a system folder'],
    [LINUX, '/lib64', '/lib64 is a system folder'],
    [LINUX, '/var', '/var is a system folder'],
    [LINUX, '/var/lib/docker', 'inside /var, a system folder'],
    [LINUX, '/var/www', '/var/www is a system folder'],
    [LINUX, '/var/www/shop', null],
    [LINUX, '/var/tmp/scratch', null],
    [LINUX, '/root', '/root is a system folder'],
    [LINUX, '/root/project', 'inside /root'],
    [LINUX, '/opt', '/opt is a system folder'],
    [LINUX, '/opt/app', null],
    [LINUX, '/tmp', '/tmp is a system folder'],
    [LINUX, '/tmp/tandem-e2e-x/shop', null],
    [LINUX, '/etcetera/app', null],
    [LINUX, '/home/ana/code/shop', null],
    [LINUX, '/home/bob/code', null],
    [LINUX, '/home/ana/.config', "contains Tandem's own data folder (/home/ana/.config/Tandem)"],
    [LINUX, '/home/ana/.config/Tandem', "it is Tandem's own data folder"],
    [LINUX, '/home/ana/.local/share/tandem/projects', "inside Tandem's own data folder"],
    [LINUX, '/home/ana/.config/TandemX', null],
    // root's home is /root: a project inside it is fine, /root itself is the home folder.
    [LINUX_ROOT, '/root', 'your home folder'],
    [LINUX_ROOT, '/root/project', null],
    [MAC, '/', 'the root of a file system'],
    [MAC, '/Users', 'contains your home folder'],
    [MAC, '/Users/ana', 'your home folder'],
    [MAC, '/System/Library', 'inside /System'],
    [MAC, '/private/etc', '/private/etc is a system folder'],
    [MAC, '/private/var/db', 'inside /private/var'],
    [MAC, '/private/var/folders/x/T/tandem-1/proj', null],
    [MAC, '/Users/ana/Library/Application Support', "contains Tandem's own data folder"],
    [MAC, '/Users/ana/code/app', null],
    [WINDOWS, 'C:\\', 'the root of a file system'],
    [WINDOWS, 'D:\\', 'the root of a file system'],
    [WINDOWS, 'c:\\users\\ANA', 'your home folder'],
    [WINDOWS, 'C:\\Users', 'contains your home folder'],
    [WINDOWS, 'C:\\Windows\\System32', 'inside C:\\Windows, a system folder'],
    [WINDOWS, 'c:\\program files\\App', 'inside C:\\Program Files, a system folder'],
    [WINDOWS, 'C:\\ProgramData', 'C:\\ProgramData is a system folder'],
    [WINDOWS, 'C:\\Users\\ana\\AppData\\Roaming', "contains Tandem's own data folder"],
    [WINDOWS, 'C:\\Users\\ana\\code\\app', null],
    [WINDOWS, 'D:\\work\\app', null],
  ] as const)('%# %s: %s → %s', (ctx, folder, expected) => {
    const refusal = projectFolderRefusal(folder, ctx);
    if (expected === null) expect(refusal).toBeNull();
    else expect(refusal).toContain(expected);
  });

  it("says why Tandem's data folder is off limits", () => {
    expect(projectFolderRefusal('/home/ana/.config', LINUX)).toBe(
      "it contains Tandem's own data folder (/home/ana/.config/Tandem): Tandem keeps its " +
        'settings, approvals, transcripts and compiled code there, and the agent must not read or change them',
    );
  });
});
