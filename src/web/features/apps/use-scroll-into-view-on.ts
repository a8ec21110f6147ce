import { useEffect, useRef } from 'react';

/**
 * Scrolls the returned element into view whenever `message` turns non-empty: the form screens show their
 * messages in a box above the fields, which a person pressing the button at the bottom of a long form
 * (or on a phone) would otherwise not see.
 */
export function useScrollIntoViewOn(message: string | null) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (message) ref.current?.scrollIntoView({ behavior: 'smooth', block: 'nearest' });
  }, [message]);
  return ref;
}
