// The session's trace, virtualized (@tanstack/react-virtual): only the items near the view are
// in the page, so a session of thousands of calls stays smooth. Cards waiting for an answer and
// running commands stay mounted wherever they are (their state and terminals live on). The list
// follows the end while the person is there; scrolled up, a pill says what is new below and
// brings a waiting approval into view with one click.
import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useSessionStore } from '../stores/session-store';
import { canRevert } from '../stores/tool-changes';
import { approvalStacks } from '../stores/approval-stacks';
import type { TraceItem } from '../stores/trace-model';
import { JumpPill } from './jump-pill';
import { RunProgress } from './run-progress';
import { TraceEntry } from './trace-entry';

/** Within this many pixels of the end counts as "at the bottom". */
const BOTTOM_SLACK = 48;

export function TraceList(): React.JSX.Element {
  const items = useSessionStore((s) => s.items);
  const activeRunId = useSessionStore((s) => s.activeRunId);
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const [following, setFollowing] = useState(true);
  const [unseen, setUnseen] = useState(false);
  const seenCount = useRef(items.length);

  const { stacks, revertableRuns, pinned, pending } = useMemo(() => {
    const stacks = approvalStacks(items);
    const revertableRuns = new Set<string>();
    const pinned: number[] = [];
    const pending: number[] = [];
    items.forEach((item, i) => {
      if (item.kind !== 'tool') return;
      if (canRevert(item)) revertableRuns.add(item.runId);
      const waiting = item.approval?.answer === null;
      if (waiting) pending.push(i);
      // A pending card keeps its half-written note; a running command keeps its terminal.
      if (waiting || item.status === 'running') pinned.push(i);
    });
    return { stacks, revertableRuns, pinned, pending };
  }, [items]);

  const rangeExtractor = useCallback(
    (range: Range) => {
      const shown = new Set(defaultRangeExtractor(range));
      for (const index of pinned) shown.add(index);
      return [...shown].sort((a, b) => a - b);
    },
    [pinned],
  );

  // The virtualizer's functions change as it measures; this component is not compiler-memoized.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => estimateHeight(items[index]),
    getItemKey: (index) => items[index]?.id ?? index,
    overscan: 8,
    rangeExtractor,
  });
  // While the list follows the end it pins itself there (toBottom). The virtualizer's own
  // correction for a row measured above the view works from the offset of the last scroll event,
  // older than that pin, and moved a fast-growing trace off the end (bench/ui.bench.ts): so it
  // corrects only while the person is elsewhere in the trace (undefined: its default).
  virtualizer.shouldAdjustScrollPositionOnItemSizeChange = atBottom.current ? never : undefined;
  const setAtBottom = useCallback(
    (bottom: boolean) => {
      atBottom.current = bottom;
      virtualizer.shouldAdjustScrollPositionOnItemSizeChange = bottom ? never : undefined;
    },
    [virtualizer],
  );
  const totalSize = virtualizer.getTotalSize();

  /** Where the list last pinned itself to the end: a scroll that leaves the end below it moved up. */
  const pinnedTop = useRef(0);
  const toBottom = useCallback(() => {
    const element = scroller.current;
    if (!element) return;
    element.scrollTop = element.scrollHeight;
    pinnedTop.current = element.scrollTop;
  }, []);

  // New items and growing cards keep the end in view while the person is at the end.
  useLayoutEffect(() => {
    if (atBottom.current) {
      toBottom();
      seenCount.current = items.length;
    } else if (items.length > seenCount.current) {
      setUnseen(true);
    }
  }, [items, totalSize, toBottom]);

  const jumpToLatest = useCallback(() => {
    setAtBottom(true);
    setFollowing(true);
    setUnseen(false);
    virtualizer.scrollToIndex(items.length - 1, { align: 'end' });
    requestAnimationFrame(toBottom);
  }, [virtualizer, items.length, toBottom, setAtBottom]);

  const firstPending = pending[0];
  const jumpToApproval = useCallback(() => {
    if (firstPending === undefined) return;
    virtualizer.scrollToIndex(firstPending, { align: 'center' });
    const id = items[firstPending]?.id;
    requestAnimationFrame(() =>
      scroller.current
        ?.querySelector<HTMLElement>(
          `[data-item="${CSS.escape(id ?? '')}"] .approval-panel.pending`,
        )
        ?.focus({ preventScroll: true }),
    );
  }, [virtualizer, firstPending, items]);

  // End jumps to the latest, as in any long document, when no field takes the key.
  useEffect(() => {
    function onKey(event: KeyboardEvent): void {
      if (event.key !== 'End' || event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target as HTMLElement | null;
      if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
      event.preventDefault();
      jumpToLatest();
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [jumpToLatest]);

  if (items.length === 0) {
    return (
      <div className="trace empty">
        <p>
          Write a task below. The agent reads freely; you approve every write, command and fetch.
        </p>
        <RunProgress />
      </div>
    );
  }

  const pendingInView =
    firstPending !== undefined && isInView(virtualizer, firstPending, scroller.current);
  return (
    <div className="trace-frame">
      <div
        ref={scroller}
        className="trace"
        aria-live="polite"
        onScroll={(event) => {
          const e = event.currentTarget;
          const bottom = e.scrollHeight - e.scrollTop - e.clientHeight < BOTTOM_SLACK;
          // Off the end without having moved up: the trace grew after the pin (a row measured,
          // the progress line), before this event was sent. Still following.
          if (!bottom && atBottom.current && e.scrollTop >= pinnedTop.current) {
            toBottom();
            return;
          }
          if (bottom) pinnedTop.current = e.scrollTop;
          setAtBottom(bottom);
          if (bottom !== following) setFollowing(bottom);
          if (bottom) {
            seenCount.current = items.length;
            setUnseen(false);
          }
        }}
      >
        <div className="trace-items" style={{ height: totalSize }}>
          {virtualizer.getVirtualItems().map((row) => {
            const item = items[row.index] as TraceItem;
            return (
              <div
                key={row.key}
                data-index={row.index}
                data-item={item.id}
                ref={virtualizer.measureElement}
                className="trace-row"
                style={{ transform: `translateY(${row.start}px)` }}
              >
                <TraceEntry
                  item={item}
                  stacks={stacks}
                  revertable={
                    item.kind === 'task' &&
                    item.runId !== activeRunId &&
                    revertableRuns.has(item.runId)
                  }
                />
              </div>
            );
          })}
        </div>
        <RunProgress />
      </div>
      {!following && (unseen || (pending.length > 0 && !pendingInView)) && (
        <JumpPill
          waiting={pendingInView ? 0 : pending.length}
          onLatest={jumpToLatest}
          onApproval={jumpToApproval}
        />
      )}
    </div>
  );
}

function never(): boolean {
  return false;
}

/** A first guess at an item's height before it is measured. */
function estimateHeight(item: TraceItem | undefined): number {
  switch (item?.kind) {
    case 'tool':
      return item.approval?.answer === null ? 320 : 64;
    case 'assistant':
      return 60 + Math.min(600, Math.floor(item.text.length / 90) * 20);
    case 'task':
      return 56;
    default:
      return 44;
  }
}

function isInView(
  virtualizer: {
    getOffsetForIndex(index: number, align: 'start'): readonly [number, string] | undefined;
  },
  index: number,
  element: HTMLElement | null,
): boolean {
  if (!element) return true;
  const offset = virtualizer.getOffsetForIndex(index, 'start')?.[0];
  if (offset === undefined) return true;
  return offset < element.scrollTop + element.clientHeight && offset + 80 > element.scrollTop;
}
