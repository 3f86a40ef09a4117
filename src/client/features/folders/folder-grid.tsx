// The folder grid (3 / 2 / 1 columns) with drag-to-reorder by @formkit/drag-and-drop (handle
// only; a 300 ms long press on touch), keyboard moves on the handle, or up/down arrows on touch
// and narrow screens. Changes show at once and are saved after a 500 ms pause.
import { useDragAndDrop } from '@formkit/drag-and-drop/react'
import { useEffect, useRef, useState } from 'react'
import { css } from 'styled-system/css'
import { FolderCard } from './folder-card'
import type { Folder } from './types'
import { useCompactReorder } from './use-compact-reorder'

type Props = {
  folders: Folder[]
  onReorder: (folders: Folder[]) => void
  /** While the order is unsaved, server data must not overwrite the local order. */
  saving: boolean
  onAdd: () => void
  onEdit: (folder: Folder) => void
  onDelete: (folder: Folder) => void
}

export const TOUCH_PRESS_MS = 300

const sameList = (a: Folder[], b: Folder[]) => a.length === b.length && a.every((f, i) => f.id === b[i].id && f.label === b[i].label && f.path === b[i].path)

const grid = css({
  display: 'grid',
  gridTemplateColumns: { base: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' },
  gap: { base: '4', md: '5' },
})

export function FolderGrid({ folders, onReorder, saving, onAdd, onEdit, onDelete }: Props) {
  const compact = useCompactReorder()
  const [announcement, setAnnouncement] = useState('')
  const onReorderRef = useRef(onReorder)
  onReorderRef.current = onReorder
  const [parentRef, items, setItems] = useDragAndDrop<HTMLUListElement, Folder>(folders, {
    dragHandle: '[data-drag-handle]',
    // The handle is a focusable button (keyboard moves); the library's default focus/blur
    // handlers would switch the card's draggable off as soon as the handle takes focus.
    handleNodeFocus: () => {},
    handleNodeBlur: () => {},
    draggable: (el) => el.hasAttribute('data-folder-id'),
    longPress: true,
    longPressDuration: TOUCH_PRESS_MS,
    longPressClass: 'folder-long-press',
    draggingClass: 'folder-dragging',
    synthDraggingClass: 'folder-dragging',
    onSort: ({ values }) => onReorderRef.current(values as Folder[]),
  })

  useEffect(() => {
    if (!saving) setItems((current) => (sameList(current, folders) ? current : folders))
  }, [folders, saving, setItems])

  const move = (from: number, to: number) => {
    const next = [...items]
    const [moved] = next.splice(from, 1)
    next.splice(to, 0, moved)
    setItems(next)
    onReorder(next)
    setAnnouncement(`${moved.label} moved to position ${to + 1} of ${next.length}`)
    // Keep focus on the control the keyboard user is using, now in its new card.
    requestAnimationFrame(() => {
      const card = parentRef.current?.querySelector<HTMLElement>(`[data-folder-id="${CSS.escape(moved.id)}"]`)
      const same = document.activeElement?.getAttribute('aria-label')
      // The same control in the moved card; if that is now disabled (moved to the end), the
      // card's first usable button (its other arrow, or the handle) so focus is never lost.
      const target =
        (same && card?.querySelector<HTMLElement>(`[aria-label="${CSS.escape(same)}"]:not(:disabled)`)) ||
        card?.querySelector<HTMLElement>('[data-drag-handle], button:not(:disabled)')
      target?.focus()
    })
  }

  return (
    <>
      <p id="folder-reorder-help" className={css({ srOnly: true })}>
        Drag to reorder, or use the arrow keys to move this folder.
      </p>
      <p aria-live="polite" className={css({ srOnly: true })}>
        {announcement}
      </p>
      <ul ref={parentRef} className={grid} aria-label="Folders">
        {items.map((folder, index) => (
          <FolderCard key={folder.id} folder={folder} index={index} count={items.length} compact={compact} onMove={move} onEdit={onEdit} onDelete={onDelete} />
        ))}
        <li className={css({ display: 'flex' })}>
          <button
            type="button"
            onClick={onAdd}
            className={css({
              flex: '1',
              minH: '48',
              display: 'flex',
              flexDirection: 'column',
              alignItems: 'center',
              justifyContent: 'center',
              gap: '2',
              borderWidth: '2px',
              borderStyle: 'dashed',
              borderColor: 'border.default',
              borderRadius: '2xl',
              color: 'fg.muted',
              cursor: 'pointer',
              transition: 'all 0.15s',
              _hover: { borderColor: 'accent.default', color: 'accent.default', bg: 'accent.muted' },
            })}
          >
            <span aria-hidden="true" className={css({ fontSize: '3xl', lineHeight: '1' })}>
              +
            </span>
            <span className={css({ fontWeight: 'semibold' })}>Add Folder</span>
          </button>
        </li>
      </ul>
    </>
  )
}
