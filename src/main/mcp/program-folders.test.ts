import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { bwrapArgv } from '../shell/sandbox-launcher';
import { probeSandbox } from '../shell/sandbox-probe';
import { programFolders } from './program-folders';

const state = await probeSandbox();
const base = mkdtempSync(path.join(tmpdir(), 'tandem-program-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

// An install in the hidden /tmp: a package with its dependencies beside it, and a secret nearby.
const install = path.join(base, 'tools');
const script = path.join(install, 'node_modules', 'server', 'dist', 'index.js');
mkdirSync(path.dirname(script), { recursive: true });
writeFileSync(path.join(install, 'package.json'), '{}');
writeFileSync(path.join(install, 'node_modules', 'server', 'package.json'), '{}');
writeFileSync(script, 'console.log("server")');
mkdirSync(path.join(base, 'secrets'));
writeFileSync(path.join(base, 'secrets', 'key'), 'SECRET');

describe('programFolders', () => {
  it('shows the outermost install folder of a script in a hidden folder', () => {
    expect(programFolders(['node', script], ['/nonexistent-home', '/tmp'])).toEqual([install]);
  });

  it('shows nothing for relative words, missing files or files outside the hidden folders', () => {
    expect(programFolders(['node', 'dist/index.js'], ['/tmp'])).toEqual([]);
    expect(programFolders(['node', path.join(base, 'missing.js')], ['/tmp'])).toEqual([]);
    expect(programFolders(['/usr/bin/env', script], ['/nonexistent-home'])).toEqual([]);
  });

  it.runIf(state.kind === 'bwrap')(
    'in bubblewrap the install is readable and the rest of /tmp stays hidden',
    () => {
      const project = mkdtempSync(path.join('/var/tmp', 'tandem-program-project-'));
      try {
        const run = (file: string) => {
          const [program, ...args] = bwrapArgv(
            {
              folder: project,
              home: '',
              allowNetwork: false,
              access: { kind: 'read-only' },
              programFolders: programFolders(['node', script], ['/tmp']),
            },
            ['cat', file],
            [],
          );
          return spawnSync(program as string, args, { encoding: 'utf8' });
        };
        expect(run(script).stdout).toBe('console.log("server")');
        expect(run(path.join(base, 'secrets', 'key')).status).not.toBe(0);
      } finally {
        rmSync(project, { recursive: true, force: true });
      }
    },
  );

  it.runIf(state.kind === 'bwrap')(
    'a script lying directly in the home folder shows itself, not the whole home folder',
    () => {
      const home = mkdtempSync(path.join('/var/tmp', 'tandem-program-home-'));
      const project = mkdtempSync(path.join('/var/tmp', 'tandem-program-project-'));
      try {
        const server = path.join(home, 'server.js');
        writeFileSync(server, 'console.log("server")');
        mkdirSync(path.join(home, '.ssh'));
        writeFileSync(path.join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY');
        const shown = programFolders(['node', server], [home, '/tmp']);
        const run = (file: string) => {
          const [program, ...args] = bwrapArgv(
            {
              folder: project,
              home,
              allowNetwork: false,
              access: { kind: 'read-only' },
              programFolders: shown,
            },
            ['cat', file],
            [],
          );
          return spawnSync(program as string, args, { encoding: 'utf8' });
        };
        expect(run(server).stdout).toBe('console.log("server")');
        const key = run(path.join(home, '.ssh', 'id_rsa'));
        expect(key.stdout).not.toContain('PRIVATE KEY');
        expect(key.status).not.toBe(0);
      } finally {
        rmSync(home, { recursive: true, force: true });
        rmSync(project, { recursive: true, force: true });
      }
    },
  );

  it('never shows a hidden folder itself for a file lying directly in it', () => {
    const loose = path.join(base, 'loose.js');
    writeFileSync(loose, '');
    expect(programFolders(['node', loose], [base])).toEqual([loose]);
  });
});
