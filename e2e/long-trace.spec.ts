// Issue 13: a long session stays usable. A run of hundreds of shell calls streamed as fast as
// main sends it keeps the end in view the whole way (no pill, nothing left behind), a recorded
// session of 2,000 calls reopens at its end, and in both only the rows near the view are in the
// page. Figures (time, frames, memory) are bench/ui.bench.ts's job; this checks behaviour.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { openAppPage } from './support/app-page';
import { startBrowserSetup, type BrowserSetup } from './support/browser-setup';
import {
  LONG_TASK,
  lastLine,
  StreamingRunController,
  writeLongSession,
} from './support/long-session';
import { startTestBridge, type TestBridge } from './support/test-bridge-server';

const LIVE_CALLS = 300;
const RECORDED_CALLS = 2_000;
/** Rows the page may hold: the view and the overscan, never the whole trace. */
const MAX_ROWS = 60;

let setup: BrowserSetup;
let bridge: TestBridge;
const controller = new StreamingRunController(LIVE_CALLS);

beforeAll(async () => {
  setup = await startBrowserSetup('tandem-e2e-long-', 'big');
  const dataDir = join(setup.root, 'data');
  writeLongSession(dataDir, setup.project, '20260101000000-longlong', RECORDED_CALLS);
  bridge = await startTestBridge({
    dataDir,
    chooseFolder: async () => setup.project,
    runControllerFactory: () => controller,
  });
});

afterAll(async () => {
  await bridge?.close();
  await setup?.close();
});

async function openFolder(): Promise<Page> {
  const { page } = await openAppPage(setup.browser, setup.web.url, bridge.url);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.getByRole('button', { name: 'Choose a folder' }).click();
  await page.getByRole('heading', { name: 'big' }).waitFor();
  return page;
}

async function distanceFromEnd(page: Page): Promise<number> {
  return page.locator('.trace').evaluate((e) => e.scrollHeight - e.scrollTop - e.clientHeight);
}

async function lastIndex(page: Page): Promise<number> {
  return page
    .locator('.trace-row')
    .evaluateAll((rows) => Math.max(...rows.map((row) => Number(row.getAttribute('data-index')))));
}

describe('a long trace', () => {
  it('follows a fast run to its end without falling behind, holding few rows', async () => {
    const page = await openFolder();
    const box = page.getByRole('textbox', { name: 'Task' });
    await box.fill(LONG_TASK);
    await box.press('Enter');
    await controller.finished;
    await page.getByText(lastLine(LIVE_CALLS)).waitFor();
    await page.getByRole('button', { name: 'Send' }).waitFor();
    expect(await distanceFromEnd(page)).toBeLessThan(48);
    expect(await page.locator('.jump-pill').count()).toBe(0);
    expect(await page.locator('.trace-row').count()).toBeLessThan(MAX_ROWS);
    // Task, 300 calls, 6 progress lines and the last one: the end is item 307 or later.
    expect(await lastIndex(page)).toBeGreaterThanOrEqual(LIVE_CALLS + 7);
    await page.context().close();
  });

  it('reopens 2,000 calls at the end, scrolls to the first, End comes back, a new session is followed', async () => {
    const page = await openFolder();
    await page
      .getByRole('navigation', { name: 'Sessions' })
      .getByRole('button', { name: new RegExp(`^${LONG_TASK}`) })
      .click();
    await page.getByText(lastLine(RECORDED_CALLS)).waitFor();
    expect(await distanceFromEnd(page)).toBeLessThan(48);
    expect(await page.locator('.trace-row').count()).toBeLessThan(MAX_ROWS);

    // The person scrolls to the top with the wheel: the first call is drawn, the end is not.
    const trace = (await page.locator('.trace').boundingBox())!;
    await page.mouse.move(trace.x + trace.width / 2, trace.y + trace.height / 2);
    await expect
      .poll(async () => {
        await page.mouse.wheel(0, -50_000);
        return page.locator('.trace').evaluate((e) => e.scrollTop);
      })
      .toBe(0);
    await page.getByText('node --test test/case-0.test.js').waitFor();
    expect(await page.getByText(lastLine(RECORDED_CALLS)).count()).toBe(0);
    expect(await page.locator('.trace-row').count()).toBeLessThan(MAX_ROWS);

    await page.keyboard.press('End');
    await page.getByText(lastLine(RECORDED_CALLS)).waitFor();
    await expect.poll(() => distanceFromEnd(page)).toBeLessThan(48);

    // Scrolled up again, then a new session: its run is followed from its own start.
    await page.mouse.wheel(0, -5_000);
    await expect.poll(() => distanceFromEnd(page)).toBeGreaterThan(1_000);
    await page.getByRole('button', { name: 'New session' }).click();
    await page.getByText('Write a task below.').waitFor();
    const box = page.getByRole('textbox', { name: 'Task' });
    await box.fill(LONG_TASK);
    await box.press('Enter');
    await controller.finished;
    await page.getByText(lastLine(LIVE_CALLS)).waitFor();
    expect(await distanceFromEnd(page)).toBeLessThan(48);
    expect(await page.locator('.jump-pill').count()).toBe(0);
    await page.context().close();
  });
});
