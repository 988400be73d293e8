// The one function that decides whether a tool call runs, asks or is refused, and says why.
// The runner, the window, the CLI and `tandem policy` all call `decidePolicy`.
import type {
  CommandPart,
  CommandVerdict,
  Decision,
  PermissionMode,
  SandboxState,
  ToolEffect,
} from '../../shared/tool-types';
import type { McpOrigin, RunBasis, ToolTarget } from '../tools/tool';
import { coverClassification, suspendedReasons, uncoveredReasons } from './command-coverage';
import type { Grant } from './grant-book';
import { decideMcp } from './mcp-policy';
import { effectiveMode } from './modes';
import { exactRule, ruleMatchesTool, type PermissionRule } from './permission-rule';
import type { PolicyDeps } from './policy-deps';
import { ask, isTaintPaused, refuse, refuseReadOnly, run, type Verdict } from './policy-verdict';
import type { NetworkSetting } from './project-permissions-store';
import {
  PROVENANCE_AUTO_EDIT,
  PROVENANCE_AUTONOMOUS,
  PROVENANCE_READ_ONLY,
  grantProvenance,
  ruleProvenance,
} from './provenance';

export interface PolicyInput {
  readonly toolName: string;
  readonly effect: ToolEffect;
  readonly target: ToolTarget;
  /** Real path of the project folder. */
  readonly folder: string;
  readonly mode: PermissionMode;
  readonly network: NetworkSetting;
  /** The project's persisted "always" rules. */
  readonly rules: readonly PermissionRule[];
  /** Grants active for this folder and session. */
  readonly grants: readonly Grant[];
  readonly sandbox: SandboxState;
  /** Set once the run has taken in network or MCP content: exec and network grants pause. */
  readonly taintedBy?: string;
  /** The server an MCP tool comes from, and whether the person trusts it. */
  readonly mcp?: McpOrigin;
  /**
   * Real paths of Tandem's own data folders: paths into them are refused, command arguments
   * naming them ask, and with one inside the project no command runs unsandboxed unasked.
   */
  readonly dataFolders?: readonly string[];
}

export interface PolicyDecision {
  readonly decision: Decision;
  readonly reasons: readonly string[];
  /** Why it runs (only when `decision` is 'run'): for the person, and for the tool (`basis`). */
  readonly provenance?: string;
  readonly basis?: RunBasis;
  /** The classifier's verdict, when the target is a command: the object the shell runs from. */
  readonly command?: CommandVerdict;
  /** The tool result for the model (only when `decision` is 'refuse'). */
  readonly refusal?: string;
  readonly mode: PermissionMode;
  /** The parsed command, when the target is a command. */
  readonly parts?: readonly CommandPart[];
  /** The guarded path, when the target is a path. */
  readonly resolvedPath?: string;
  /** What "allow for this session" / "always allow" would store; empty when nothing may be stored. */
  readonly grantable: readonly PermissionRule[];
  readonly usedRules: readonly PermissionRule[];
  readonly usedGrants: readonly Grant[];
}

const MCP_PREFIX = 'mcp__';

export function isMcpToolName(name: string): boolean {
  return name.startsWith(MCP_PREFIX);
}

export async function decidePolicy(input: PolicyInput, deps: PolicyDeps): Promise<PolicyDecision> {
  const effective = effectiveMode(input.mode, input.sandbox);
  const notes = effective.note ? [effective.note] : [];
  const decision = await decideInMode(input, effective.mode, deps);
  return { ...decision, mode: effective.mode, reasons: [...notes, ...decision.reasons] };
}

async function decideInMode(
  input: PolicyInput,
  mode: PermissionMode,
  deps: PolicyDeps,
): Promise<Omit<PolicyDecision, 'mode'>> {
  const result = await decideTarget(input, mode, deps);
  return {
    ...result,
    grantable: result.grantable ?? [],
    usedRules: result.usedRules ?? [],
    usedGrants: result.usedGrants ?? [],
  };
}

async function decideTarget(
  input: PolicyInput,
  mode: PermissionMode,
  deps: PolicyDeps,
): Promise<Verdict> {
  // An MCP tool is judged by its server: trusted or not, sandboxed or not, its rules and grants.
  if (input.mcp) return decideMcp(input, mode, input.mcp);
  // A tool named like one without its server's word: nothing it declares is believed.
  if (isMcpToolName(input.toolName)) return decideByTool(input, mode, 'an MCP tool');
  const { target } = input;
  switch (target.kind) {
    case 'path':
      return decidePath(input, mode, target.path, target.access, deps);
    case 'command':
      return decideCommand(input, mode, target.command, deps);
    case 'url':
      return decideNetwork(input, mode, `fetching ${target.url}`);
    case 'none':
      if (input.effect === 'read') {
        return run([`${input.toolName} only reads`], PROVENANCE_READ_ONLY, 'read-only');
      }
      if (input.effect === 'network') return decideNetwork(input, mode, `${input.toolName}`);
      return decideOtherEffect(input, mode);
  }
}

async function decidePath(
  input: PolicyInput,
  mode: PermissionMode,
  requested: string,
  access: 'read' | 'write',
  deps: PolicyDeps,
): Promise<Verdict> {
  const guard = await deps.guardPath(input.folder, requested, access, {
    untouchable: input.dataFolders ?? [],
  });
  if (!guard.ok) {
    return refuse([guard.reason], `${input.toolName} was refused: ${guard.reason}`);
  }
  const where = { resolvedPath: guard.path };
  if (access === 'read' && input.effect !== 'read') {
    // A tool that declares more than a read is judged by its effect, not by the path it names.
    return { ...decideOtherEffect(input, mode), ...where };
  }
  if (access === 'read') {
    return {
      ...run(
        [`reads ${guard.relative || '.'} inside the project folder`],
        PROVENANCE_READ_ONLY,
        'read-only',
      ),
      ...where,
    };
  }
  const what = `writing ${guard.relative}`;
  if (mode === 'read-only') return { ...refuseReadOnly(what), ...where };
  if (deps.isInsideGitDir(guard.relative)) {
    // Git's own files can rewrite history or hooks: every write there is a deliberate yes.
    return { ...ask([`${what}: writes into .git/ always ask`], []), ...where };
  }
  if (mode === 'auto-edit') {
    return {
      ...run(
        [`${what} inside the project folder (auto-accept edits)`],
        PROVENANCE_AUTO_EDIT,
        'mode',
      ),
      ...where,
    };
  }
  if (mode === 'autonomous') {
    return {
      ...run([`${what} inside the project folder (autonomous)`], PROVENANCE_AUTONOMOUS, 'mode'),
      ...where,
    };
  }
  return { ...(await decideByTool(input, mode, what)), ...where };
}

async function decideCommand(
  input: PolicyInput,
  mode: PermissionMode,
  command: string,
  deps: PolicyDeps,
): Promise<Verdict> {
  const verdict = await deps.classifyCommand(command, input.folder, {
    untouchable: input.dataFolders ?? [],
  });
  const judged = { parts: verdict.parts, command: verdict };
  const exposed = exposedDataFolder(input);
  if (exposed !== undefined) {
    // Without a sandbox to hide it, even `grep -r x .` would read Tandem's data in the project.
    const why = `Tandem's own data folder (${exposed}) is inside the project and commands are not sandboxed here`;
    if (mode === 'read-only') {
      return { ...refuse([why], `The command \`${command}\` was not run: ${why}.`), ...judged };
    }
    return { ...ask([`${why}, so every command asks`], []), ...judged };
  }
  if (verdict.safe) {
    return {
      ...run(['every part is a read-only command'], PROVENANCE_READ_ONLY, 'read-only'),
      ...judged,
    };
  }
  const what = `the command \`${command}\``;
  if (mode === 'read-only') return { ...refuseReadOnly(what), ...judged };
  if (mode === 'autonomous') {
    return {
      ...run([`${what} runs inside the sandbox (autonomous)`], PROVENANCE_AUTONOMOUS, 'mode'),
      ...judged,
    };
  }
  const paused = isTaintPaused(input.effect, input.taintedBy);
  const { coverage, structural, coverable } = coverClassification(
    verdict,
    input.rules,
    input.grants.filter((g) => g.rule.kind === 'command'),
    paused,
  );
  // A rule or grant covers only a command Tandem can run from its judged words.
  if (coverage.covered && verdict.canonical !== undefined) {
    const basis: RunBasis = coverage.usedGrants.length > 0 ? 'grant' : 'rule';
    return {
      ...run(coverage.provenance, coverage.provenance.join('; '), basis),
      ...judged,
      usedRules: coverage.usedRules,
      usedGrants: coverage.usedGrants,
    };
  }
  const reasons = [
    ...structural.map((r) => `${r}, so rules and grants do not apply`),
    ...uncoveredReasons(coverage),
    ...(input.taintedBy ? suspendedReasons(coverage, input.taintedBy) : []),
    ...(mode === 'auto-edit' ? ['auto-accept edits mode still asks for commands'] : []),
  ];
  // Only parts a rule could ever cover are worth storing (never `rm -rf ~`, never `x > f`).
  // Each exactly as shown; the person may widen one in the rule preview (rule-widening.ts).
  const grantable = dedupe(coverage.uncovered.filter((p) => coverable.has(p)).map((p) => p.argv));
  return {
    ...ask(
      reasons,
      grantable.map((argv) => exactRule(argv)),
    ),
    ...judged,
  };
}

/** A data folder inside the project that no sandbox hides from commands, if there is one. */
function exposedDataFolder(input: PolicyInput): string | undefined {
  if (input.sandbox.available) return undefined;
  const root = input.folder.endsWith('/') ? input.folder : `${input.folder}/`;
  return (input.dataFolders ?? []).find((dir) => dir === input.folder || dir.startsWith(root));
}

function decideNetwork(input: PolicyInput, mode: PermissionMode, what: string): Verdict {
  if (input.network === 'off') {
    return refuse(
      [`the network is off for this project`],
      `${what} was not run: the network is off for this project.`,
    );
  }
  if (mode === 'read-only') return refuseReadOnly(what);
  if (mode === 'autonomous' && input.network === 'allow') {
    return run(
      [`${what}: the project allows the network (autonomous)`],
      PROVENANCE_AUTONOMOUS,
      'mode',
    );
  }
  const extra =
    mode === 'autonomous' ? ['the network follows the project setting, which is to ask'] : [];
  const decided = decideByTool(input, mode, what);
  return decided.decision === 'ask'
    ? { ...decided, reasons: [...decided.reasons, ...extra] }
    : decided;
}

/** A built-in write or exec whose target the policy cannot see: autonomous runs it, others ask. */
function decideOtherEffect(input: PolicyInput, mode: PermissionMode): Verdict {
  const what = `${input.toolName} (${input.effect})`;
  if (mode === 'autonomous') {
    return run([`${what} runs in autonomous mode`], PROVENANCE_AUTONOMOUS, 'mode');
  }
  return decideByTool(input, mode, what);
}

/** Tool-level rules and grants: writes in Ask mode, MCP tools, effect-only tools. */
function decideByTool(input: PolicyInput, mode: PermissionMode, what: string): Verdict {
  if (mode === 'read-only') return refuseReadOnly(what);
  const rule = input.rules.find((r) => ruleMatchesTool(r, input.toolName));
  if (rule) {
    return { ...run([ruleProvenance(rule)], ruleProvenance(rule), 'rule'), usedRules: [rule] };
  }
  const paused = isTaintPaused(toolEffectForTaint(input), input.taintedBy);
  const grant = input.grants.find((g) => ruleMatchesTool(g.rule, input.toolName));
  if (grant && !paused) {
    return {
      ...run([grantProvenance(grant)], grantProvenance(grant), 'grant'),
      usedGrants: [grant],
    };
  }
  const reasons = [`${what} needs your approval`];
  if (isMcpToolName(input.toolName)) reasons.push('MCP tools run outside the sandbox');
  if (grant && input.taintedBy) {
    reasons.push(
      `your grant for this tool is paused for the rest of this session: the conversation took in outside content ${input.taintedBy}`,
    );
  }
  if (input.taintedBy && !grant)
    reasons.push(`the conversation took in outside content ${input.taintedBy}`);
  return ask(reasons, [{ kind: 'tool', tool: input.toolName }]);
}

function toolEffectForTaint(input: PolicyInput): ToolEffect {
  return isMcpToolName(input.toolName) ? 'exec' : input.effect;
}

function dedupe(prefixes: readonly (readonly string[])[]): (readonly string[])[] {
  const seen = new Set<string>();
  return prefixes.filter((p) => {
    const key = JSON.stringify(p);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
