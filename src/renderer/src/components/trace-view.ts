// Whether a part of the trace is in view of the trace's scroll area, and bringing it there.

const TRACE = '.trace';

/** True when at least half of `element` (or 120 px of a tall one) is inside the trace's view. */
export function inTraceView(element: HTMLElement): boolean {
  const scroller = element.closest(TRACE);
  if (!scroller) return true;
  const view = scroller.getBoundingClientRect();
  const box = element.getBoundingClientRect();
  const visible = Math.min(box.bottom, view.bottom) - Math.max(box.top, view.top);
  return visible >= Math.min(box.height / 2, 120);
}

export function revealInTrace(element: HTMLElement): void {
  element.scrollIntoView({ block: 'nearest' });
  element.focus({ preventScroll: true });
}

/** True when any element matching `selector` is in the trace's view. */
export function anyInTraceView(selector: string): boolean {
  return [...document.querySelectorAll<HTMLElement>(selector)].some(inTraceView);
}
