// Whether an element is on screen or close to it, so heavy parts (terminals) exist only there.
// The root is the nearest scroll container (`rootSelector`): a root margin on the viewport would
// not reach past the container's own clipping.
import { useEffect, useState, type RefObject } from 'react';

export function useNearViewport(
  ref: RefObject<HTMLElement | null>,
  rootSelector: string,
  margin = '600px',
): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        const entry = entries.at(-1);
        if (entry) setNear(entry.isIntersecting);
      },
      { root: element.closest(rootSelector), rootMargin: margin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, rootSelector, margin]);
  return near;
}
