// Whether something has been running for `ms` as far as this window has seen it (the window's own
// clock from when it first drew it running: a window that fell behind main must not count the
// time the events spent waiting). Re-renders once when it gets there.
import { useEffect, useState } from 'react';

export function useRunningFor(running: boolean, ms: number): boolean {
  const [reached, setReached] = useState(false);
  useEffect(() => {
    if (!running) return;
    const timer = setTimeout(() => setReached(true), ms);
    return () => {
      clearTimeout(timer);
      setReached(false);
    };
  }, [running, ms]);
  return running && reached;
}
