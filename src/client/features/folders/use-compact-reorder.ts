// Up/down arrows instead of dragging on touch devices and under 768 px.
import { useSyncExternalStore } from 'react'

const QUERY = '(max-width: 767.98px), (hover: none) and (pointer: coarse)'

export function useCompactReorder(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const mql = window.matchMedia(QUERY)
      mql.addEventListener('change', onChange)
      return () => mql.removeEventListener('change', onChange)
    },
    () => window.matchMedia(QUERY).matches,
    () => false,
  )
}
