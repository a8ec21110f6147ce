import { useEffect, useState } from 'react';

/** False until `ms` after mount (2 s before live data loads, 2 s before logs auto-load). */
export function useDelayPassed(ms: number): boolean {
  const [isPassed, setIsPassed] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setIsPassed(true), ms);
    return () => clearTimeout(timer);
  }, [ms]);
  return isPassed;
}
