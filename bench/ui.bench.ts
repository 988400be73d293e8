// Window benchmark: a session of 2,000 tool calls with 20 MB of shell output, in the built
// renderer in Chromium over the real handlers (the e2e bridge). Prints
//   - reopen: time from clicking the session in the sidebar to the first paint of its trace,
//     split into main + transport, the bridge's JSON.parse, and the window's fold and paint,
//   - frame times while scrolling the whole reopened trace,
//   - long main-thread tasks while reopening, scrolling and while the same session streams live,
//   - the JS heap after each (after a forced GC).
// Run: npm run bench:ui (builds first; `npx tsx bench/ui.bench.ts` on a current build)
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { openAppPage } from '../e2e/support/app-page';
import { startBrowserSetup } from '../e2e/support/browser-setup';
import {
  LONG_TASK,
  lastLine,
  StreamingRunController,
  writeLongSession,
} from '../e2e/support/long-session';
import { startTestBridge } from '../e2e/support/test-bridge-server';

const CALLS = 2_000;
const SESSION = '20260101000000-benchui0';

/**
 * Before the bridge's script: long tasks (over 50 ms) the page's main thread ran, from page load;
 * and, for each large message on the bridge's socket, when it arrived and how long the bridge's
 * own listener (JSON.parse, then resolving the call) took, so the transport is told apart from
 * the window's work (Electron's IPC passes the same value by structured clone, not JSON).
 */
const PAGE_PROBES = `
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
  }).observe({ type: 'longtask', buffered: true });
  window.__bigReplies = [];
  const add = WebSocket.prototype.addEventListener;
  WebSocket.prototype.addEventListener = function (type, listener, options) {
    if (type !== 'message') return add.call(this, type, listener, options);
    return add.call(this, type, function (message) {
      const at = performance.now();
      listener.call(this, message);
      if (message.data.length > 1000000) {
        window.__bigReplies.push({ at, parseMs: performance.now() - at, chars: message.data.length });
      }
    }, options);
  };
`;

interface BigReply {
  readonly at: number;
  readonly parseMs: number;
  readonly chars: number;
}

async function longTasks(page: Page): Promise<number[]> {
  return page.evaluate('window.__longTasks.splice(0)') as Promise<number[]>;
}

async function heapMiB(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return usedSize / 1024 / 1024;
}

function describeTasks(tasks: readonly number[]): string {
  if (tasks.length === 0) return 'none over 50 ms';
  const sorted = [...tasks].sort((a, b) => b - a);
  const next = sorted.slice(1, 4).map((t) => t.toFixed(0));
  return `${tasks.length} over 50 ms; longest ${sorted[0]?.toFixed(0)} ms${
    next.length > 0 ? `, next ${next.join(', ')}` : ''
  }`;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
}

function describeFrames(frames: readonly number[]): string {
  const sorted = [...frames].sort((a, b) => a - b);
  const slow = frames.filter((f) => f > 50).length;
  return `${frames.length} frames; median ${percentile(sorted, 0.5).toFixed(1)} ms, p95 ${percentile(
    sorted,
    0.95,
  ).toFixed(1)} ms, longest ${sorted.at(-1)?.toFixed(0)} ms; ${slow} over 50 ms`;
}

/** Frame intervals from FRAMES_START to FRAMES_STOP (a frame loop that asks for every frame). */
const FRAMES_START = `(() => {
  window.__frames = [];
  window.__framesOn = true;
  let last = performance.now();
  const tick = (now) => {
    window.__frames.push(now - last);
    last = now;
    if (window.__framesOn) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})()`;
const FRAMES_STOP = `(() => { window.__framesOn = false; return window.__frames.splice(0); })()`;

/** Click the session in the sidebar; resolves when a frame with its trace in it was painted. */
const REOPEN = `new Promise((resolve) => {
  const start = performance.now();
  document.querySelector('.session-open').click();
  const check = () => {
    if (document.querySelector('.trace-row .tool-card')) {
      requestAnimationFrame(() => setTimeout(() => resolve({ start, painted: performance.now() }), 0));
    } else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})`;

/** Scrolls the trace from the end to the top, SCROLL_STEP px a frame (brisk); frame intervals. */
const SCROLL_STEP = 600;
const SCROLL_UP = `new Promise((resolve) => {
  const trace = document.querySelector('.trace');
  const frames = [];
  let last = performance.now();
  const step = (now) => {
    frames.push(now - last);
    last = now;
    if (trace.scrollTop <= 0) return resolve({ frames, height: trace.scrollHeight });
    trace.scrollTop = Math.max(0, trace.scrollTop - ${SCROLL_STEP});
    requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
})`;

async function main(): Promise<void> {
  const setup = await startBrowserSetup('tandem-bench-ui-', 'big');
  const dataDir = join(setup.root, 'data');
  const controller = new StreamingRunController(CALLS);
  const bridge = await startTestBridge({
    dataDir,
    chooseFolder: async () => setup.project,
    runControllerFactory: () => controller,
  });
  try {
    // The recorded session, written as the agent writes transcripts.
    const { events, outputBytes } = writeLongSession(dataDir, setup.project, SESSION, CALLS);
    console.log(
      `session: ${CALLS} shell calls, ${events} events, ${(outputBytes / 1e6).toFixed(1)} MB of output`,
    );
    const { page } = await openAppPage(setup.browser, setup.web.url, bridge.url, [PAGE_PROBES]);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: 'Choose a folder' }).click();
    await page.getByRole('button', { name: new RegExp(`^${LONG_TASK}`) }).waitFor();
    await longTasks(page);
    const heapBefore = await heapMiB(page);

    // Reopen: click to the first frame painted with the trace in it.
    const reopen = (await page.evaluate(REOPEN)) as { start: number; painted: number };
    const [reply] = (await page.evaluate('window.__bigReplies.splice(0)')) as BigReply[];
    const reopenTasks = await longTasks(page);
    const rows = await page.locator('.trace-row').count();
    const heapReopened = await heapMiB(page);
    console.log(
      `reopen, click to first paint: ${(reopen.painted - reopen.start).toFixed(0)} ms (${rows} rows in the page)`,
    );
    if (reply) {
      console.log(
        `  main reads the transcript and sends it (bridge: ${(reply.chars / 1e6).toFixed(0)} MB of JSON over a WebSocket): ${(reply.at - reopen.start).toFixed(0)} ms`,
      );
      console.log(`  the bridge parses the reply in the page: ${reply.parseMs.toFixed(0)} ms`);
      console.log(
        `  the window folds the events and paints: ${(reopen.painted - reply.at - reply.parseMs).toFixed(0)} ms`,
      );
    }
    console.log(`  long tasks: ${describeTasks(reopenTasks)}`);
    console.log(
      `  JS heap (after GC): ${heapBefore.toFixed(1)} MiB before, ${heapReopened.toFixed(1)} MiB after`,
    );

    // Scroll the whole reopened trace, end to top.
    await longTasks(page);
    const scroll = (await page.evaluate(SCROLL_UP)) as { frames: number[]; height: number };
    const scrollTasks = await longTasks(page);
    console.log(
      `scrolling end to top (${(scroll.height / 1000).toFixed(0)}k px, ${SCROLL_STEP} px a frame): ${describeFrames(scroll.frames)}`,
    );
    console.log(`  long tasks: ${describeTasks(scrollTasks)}`);

    // Stream the same session live into a new one.
    await page.getByRole('button', { name: 'New session' }).click();
    await page.getByText('Write a task below.').waitFor();
    await longTasks(page);
    await page.evaluate(FRAMES_START);
    const streamStart = Date.now();
    await page.getByRole('textbox', { name: 'Task' }).fill(LONG_TASK);
    await page.getByRole('textbox', { name: 'Task' }).press('Enter');
    await controller.finished;
    const sentMs = Date.now() - streamStart;
    await page.getByText(lastLine(CALLS)).waitFor({ timeout: 900_000 });
    await page.getByRole('button', { name: 'Send' }).waitFor();
    const streamMs = Date.now() - streamStart;
    const streamFrames = (await page.evaluate(FRAMES_STOP)) as number[];
    const streamTasks = await longTasks(page);
    const heapStreamed = await heapMiB(page);
    console.log(
      `streaming the session live: ${(streamMs / 1000).toFixed(1)} s to the last line painted (main sent it all in ${(sentMs / 1000).toFixed(1)} s)`,
    );
    console.log(`  ${describeFrames(streamFrames)}`);
    console.log(`  long tasks: ${describeTasks(streamTasks)}`);
    console.log(`  JS heap (after GC): ${heapStreamed.toFixed(1)} MiB`);
    await page.context().close();
  } finally {
    await bridge.close();
    await setup.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
