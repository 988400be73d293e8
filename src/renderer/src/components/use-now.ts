// The current time, re-read every `intervalMs` while a component shows something that ticks (a
// running command's elapsed time, "thinking for 12 s"). Only mounted tickers cost anything.
import { useEffect, useState } from 'react';

export function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
