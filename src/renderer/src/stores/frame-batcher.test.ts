import { describe, expect, it } from 'vitest';
import { createFrameBatcher, type Scheduler } from './frame-batcher';

/** A scheduler the test drives: `tick()` runs what was asked for, as the next frame would. */
function manualScheduler(): { schedule: Scheduler; tick(): void; asked(): number } {
  let pending: (() => void) | null = null;
  let asked = 0;
  return {
    schedule(flush) {
      asked++;
      pending = flush;
      return () => {
        if (pending === flush) pending = null;
      };
    },
    tick() {
      const run = pending;
      pending = null;
      run?.();
    },
    asked: () => asked,
  };
}

describe('createFrameBatcher', () => {
  it('hands over everything that arrived before the frame, in order, once', () => {
    const clock = manualScheduler();
    const flushed: number[][] = [];
    const batcher = createFrameBatcher<number>((items) => flushed.push([...items]), clock.schedule);
    batcher.push(1);
    batcher.push(2);
    batcher.push(3);
    expect(flushed).toEqual([]);
    expect(clock.asked()).toBe(1);
    clock.tick();
    expect(flushed).toEqual([[1, 2, 3]]);
    clock.tick();
    expect(flushed).toEqual([[1, 2, 3]]);
  });

  it('asks for a new frame for what arrives after a flush', () => {
    const clock = manualScheduler();
    const flushed: number[][] = [];
    const batcher = createFrameBatcher<number>((items) => flushed.push([...items]), clock.schedule);
    batcher.push(1);
    clock.tick();
    batcher.push(2);
    expect(clock.asked()).toBe(2);
    clock.tick();
    expect(flushed).toEqual([[1], [2]]);
  });

  it('flushNow hands over at once and cancels the frame it asked for', () => {
    const clock = manualScheduler();
    const flushed: number[][] = [];
    const batcher = createFrameBatcher<number>((items) => flushed.push([...items]), clock.schedule);
    batcher.push(1);
    batcher.flushNow();
    expect(flushed).toEqual([[1]]);
    clock.tick();
    batcher.flushNow();
    expect(flushed).toEqual([[1]]);
  });

  it('drop forgets what was kept: a later frame hands over nothing of it', () => {
    const clock = manualScheduler();
    const flushed: number[][] = [];
    const batcher = createFrameBatcher<number>((items) => flushed.push([...items]), clock.schedule);
    batcher.push(1);
    batcher.drop();
    clock.tick();
    expect(flushed).toEqual([]);
    batcher.push(2);
    clock.tick();
    expect(flushed).toEqual([[2]]);
  });

  it('an item pushed while flushing waits for the next frame', () => {
    const clock = manualScheduler();
    const flushed: number[][] = [];
    const batcher = createFrameBatcher<number>((items) => {
      flushed.push([...items]);
      if (items[0] === 1) batcher.push(9);
    }, clock.schedule);
    batcher.push(1);
    clock.tick();
    expect(flushed).toEqual([[1]]);
    clock.tick();
    expect(flushed).toEqual([[1], [9]]);
  });
});
