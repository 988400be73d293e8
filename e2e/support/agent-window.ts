// What the window specs with the REAL agent share: Chromium over the built renderer, the real
// handlers behind the bridge, the real agent (runner, tools, gate, broker, journal, pty) in a
// temp project, and the scripted OpenAI-compatible server playing one script per task.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { probeSandbox } from '../../src/main/shell/sandbox-probe';
import {
  startScriptedOpenAIServer,
  type ScriptedServer,
  type ScriptedServerOptions,
  type ScriptedTurn,
} from '../../src/test-support/scripted-openai-server';
import { openAppPage, type AppPage } from './app-page';
import { startBrowserSetup, type BrowserSetup } from './browser-setup';
import { startTestBridge, type TestBridge, type TestBridgeOptions } from './test-bridge-server';

export type Scripts = Readonly<Record<string, readonly ScriptedTurn[]>>;

export interface AgentWindow extends RealAgent {
  /** A new page with the project open, at the given width (1100 by default). */
  openProject(width?: number): Promise<AppPage>;
}

/**
 * The model's turn for a request: the script of the task in the newest user message that is a
 * task (notes from Tandem are skipped), at the step given by how many answers it had since.
 */
export function scriptedTurn(scripts: Scripts) {
  return (_index: number, body: unknown): ScriptedTurn => {
    const messages = (body as { messages: { role: string; content?: unknown }[] }).messages;
    let lastUser = -1;
    messages.forEach((m, i) => {
      if (m.role === 'user' && !String(m.content).startsWith('Note from Tandem')) lastUser = i;
    });
    const task = String(messages[lastUser]?.content ?? '');
    const answered = messages.slice(lastUser).filter((m) => m.role === 'assistant').length;
    const script = scripts[task];
    if (!script) return { text: `no script for "${task}"` };
    return script[answered] ?? { text: 'done' };
  };
}

export type RealAgentOptions = Partial<TestBridgeOptions> & {
  /** Runs on the project folder before the servers start (files the scenario needs). */
  readonly prepare?: (project: string) => Promise<void>;
};

/** The parts every real-agent window spec starts, before any page is open. */
export interface RealAgent {
  readonly setup: BrowserSetup;
  readonly openai: ScriptedServer;
  readonly bridge: TestBridge;
  readonly project: string;
  readonly dataDir: string;
  close(): Promise<void>;
}

/**
 * Chromium over the built renderer, the scripted model playing `turns`, and the real handlers
 * and agent behind the bridge on a temp project folder named `folder`.
 */
export async function startRealAgent(
  name: string,
  folder: string,
  turns: ScriptedServerOptions['turns'],
  options: RealAgentOptions = {},
): Promise<RealAgent> {
  const { prepare, ...bridgeOptions } = options;
  const setup = await startBrowserSetup(`tandem-e2e-${name}-`, folder);
  await prepare?.(setup.project);
  const dataDir = join(setup.root, 'data');
  const openai = await startScriptedOpenAIServer({ turns, model: 'scripted-model' });
  const bridge = await startTestBridge({
    dataDir,
    chooseFolder: async () => setup.project,
    provider: { baseUrl: openai.baseUrl, model: 'scripted-model', apiKey: `sk-e2e-${name}` },
    sandboxState: probeSandbox,
    realAgent: true,
    ...bridgeOptions,
  });
  return {
    setup,
    openai,
    bridge,
    project: setup.project,
    dataDir,
    async close() {
      await bridge.close();
      await openai.close();
      await setup.close();
    },
  };
}

export async function startAgentWindow(
  name: string,
  scripts: Scripts,
  options: RealAgentOptions = {},
): Promise<AgentWindow> {
  const agent = await startRealAgent(name, 'shop', scriptedTurn(scripts), options);
  const { setup, bridge } = agent;
  return {
    ...agent,
    async openProject(width = 1100) {
      const opened = await openAppPage(setup.browser, setup.web.url, bridge.url);
      await opened.page.setViewportSize({ width, height: 720 });
      await opened.page.getByRole('button', { name: 'Choose a folder' }).click();
      await opened.page.getByRole('heading', { name: 'shop' }).waitFor();
      return opened;
    },
  };
}

export async function sendTask(page: Page, task: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Task' });
  await box.fill(task);
  await box.press('Enter');
}

/** The run is over when the composer offers Send again. */
export async function runFinished(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Send' }).waitFor();
}

/** User messages of the model's newest request (what the model was told last). */
export function lastUserMessages(openai: ScriptedServer): string[] {
  const body = openai.chatBodies().at(-1);
  return (body?.messages ?? []).filter((m) => m.role === 'user').map((m) => String(m.content));
}
