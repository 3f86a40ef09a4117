// A fixed-row-height virtual list: only the rows in view (plus a few) are in the DOM, so a folder
// of thousands of files renders at once. Keeps the active row in view when it changes.
import { type PointerEvent as ReactPointerEvent, type ReactNode, type RefObject, useEffect, useRef, useState } from 'react'
import { css, cx } from 'styled-system/css'

type Props<T> = {
  items: readonly T[]
  rowHeight: number
  /** CSS max-height of the scroll box ("Up Next" is capped at 30% of the viewport). */
  maxHeight: string
  activeIndex?: number
  label: string
  className?: string
  renderRow: (item: T, index: number) => ReactNode
}

const OVERSCAN = 6

export function VirtualList<T>({ items, rowHeight, maxHeight, activeIndex = -1, label, className, renderRow }: Props<T>) {
  const box = useRef<HTMLDivElement>(null)
  const [scrollTop, setScrollTop] = useState(0)
  const [height, setHeight] = useState(400)

  useEffect(() => {
    const el = box.current
    if (!el) return
    const measure = () => setHeight(el.clientHeight || 400)
    measure()
    const ro = typeof ResizeObserver !== 'undefined' ? new ResizeObserver(measure) : null
    ro?.observe(el)
    return () => ro?.disconnect()
  }, [])

  useEffect(() => {
    const el = box.current
    if (!el || activeIndex < 0) return
    const top = activeIndex * rowHeight
    if (top < el.scrollTop) el.scrollTop = top
    else if (top + rowHeight > el.scrollTop + el.clientHeight) el.scrollTop = top + rowHeight - el.clientHeight
  }, [activeIndex, rowHeight])

  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN)
  const last = Math.min(items.length, Math.ceil((scrollTop + height) / rowHeight) + OVERSCAN)
  const rows: ReactNode[] = []
  for (let i = first; i < last; i++) {
    rows.push(
      <li key={i} aria-setsize={items.length} aria-posinset={i + 1} style={{ position: 'absolute', top: i * rowHeight, left: 0, right: 0, height: rowHeight }}>
        {renderRow(items[i], i)}
      </li>,
    )
  }
  return (
    <div
      ref={box}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      className={cx(css({ position: 'relative', overflowY: 'auto', overscrollBehavior: 'contain' }), className)}
      style={{ maxHeight }}
    >
      <ul aria-label={label} style={{ height: items.length * rowHeight, position: 'relative' }}>
        {rows}
      </ul>
    </div>
  )
}

/**
 * Pointer drag on a VirtualList row's grip: the drop position is the row under the pointer, the
 * list scrolls when the pointer nears its edges, and pointercancel drops nothing. `box` holds the
 * VirtualList; `onDrop(from, to)` runs on release. `drag` is what the rows show while dragging.
 */
export function useRowDrag(box: RefObject<HTMLElement | null>, rowHeight: number, count: number, onDrop: (from: number, to: number) => void) {
  const [drag, setDrag] = useState<{ from: number; to: number } | null>(null)
  function startDrag(e: ReactPointerEvent, from: number) {
    if (e.button !== 0 || !box.current) return
    e.preventDefault()
    const scroller = box.current.firstElementChild as HTMLElement
    const list = scroller.querySelector('ul') as HTMLElement
    let to = from
    setDrag({ from, to })
    const onMove = (ev: PointerEvent) => {
      const edges = scroller.getBoundingClientRect()
      if (ev.clientY < edges.top + rowHeight / 2) scroller.scrollTop -= rowHeight / 4
      else if (ev.clientY > edges.bottom - rowHeight / 2) scroller.scrollTop += rowHeight / 4
      to = Math.max(0, Math.min(count - 1, Math.floor((ev.clientY - list.getBoundingClientRect().top) / rowHeight)))
      setDrag({ from, to })
    }
    const onEnd = (ev: PointerEvent) => {
      window.removeEventListener('pointermove', onMove)
      window.removeEventListener('pointerup', onEnd)
      window.removeEventListener('pointercancel', onEnd)
      setDrag(null)
      if (ev.type === 'pointerup') onDrop(from, to)
    }
    window.addEventListener('pointermove', onMove)
    window.addEventListener('pointerup', onEnd)
    window.addEventListener('pointercancel', onEnd)
  }
  return { drag, startDrag }
}
