// The current time, ticking; null during SSR and the first client render so time-dependent text
// (relative times, local clock times) never causes a hydration mismatch.
import { useEffect, useState } from 'react'

export function useNow(everyMs = 30_000): number | null {
  const [now, setNow] = useState<number | null>(null)
  useEffect(() => {
    setNow(Date.now())
    const timer = setInterval(() => setNow(Date.now()), everyMs)
    return () => clearInterval(timer)
  }, [everyMs])
  return now
}
