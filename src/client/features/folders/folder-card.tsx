// One folder: drag handle (or up/down arrows), Local/Remote label, name, path, Edit, Delete and
// "Play Folder".
import { Link } from '@tanstack/react-router'
import type { KeyboardEvent, PointerEvent } from 'react'
import { button, Button } from '~/client/ui/button'
import { isRemotePath } from '~/shared/validators'
import { css, cx } from 'styled-system/css'
import { rememberFolder } from './last-folder'
import type { Folder } from './types'

type Props = {
  folder: Folder
  index: number
  count: number
  compact: boolean
  onMove: (from: number, to: number) => void
  onEdit: (folder: Folder) => void
  onDelete: (folder: Folder) => void
}

const TOUCH_TOLERANCE_PX = 8

// While a touch press waits for the 300 ms long press, moves under 8 px are kept from the
// drag library (which would otherwise cancel the press on any move).
let touchStart: { x: number; y: number } | null = null
function onHandlePointerDown(e: PointerEvent) {
  touchStart = e.pointerType === 'touch' ? { x: e.clientX, y: e.clientY } : null
}
function onHandlePointerMove(e: PointerEvent) {
  if (e.pointerType !== 'touch' || !touchStart || e.currentTarget.closest('[data-folder-id]')?.classList.contains('folder-long-press')) return
  if (Math.hypot(e.clientX - touchStart.x, e.clientY - touchStart.y) < TOUCH_TOLERANCE_PX) e.stopPropagation()
}

export const card = css({
  position: 'relative',
  // A grid item may shrink below its content (a long URL must not widen the page on phones).
  minW: '0',
  display: 'flex',
  flexDirection: 'column',
  gap: '3',
  p: '5',
  bg: 'bg.surface',
  borderWidth: '1px',
  borderColor: 'border.default',
  borderRadius: '2xl',
  minH: '48',
  transition: 'border-color 0.15s, box-shadow 0.15s',
  _hover: { borderColor: 'accent.default' },
  '&.folder-dragging, &.folder-long-press': { opacity: 0.6, borderColor: 'accent.default', boxShadow: 'lg' },
})

const iconButton = css({
  w: '8',
  h: '8',
  // The ↑/↓ buttons of touch screens and phones are a finger's 44 px target.
  '&[data-touch]': { w: '11', h: '11' },
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  borderRadius: 'md',
  color: 'fg.muted',
  cursor: 'pointer',
  _hover: { _enabled: { bg: 'bg.subtle', color: 'fg.default' } },
  _disabled: { opacity: 0.35, cursor: 'not-allowed' },
})

export function FolderCard({ folder, index, count, compact, onMove, onEdit, onDelete }: Props) {
  const remote = isRemotePath(folder.path)
  const onHandleKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowUp' || e.key === 'ArrowLeft') {
      e.preventDefault()
      if (index > 0) onMove(index, index - 1)
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowRight') {
      e.preventDefault()
      if (index < count - 1) onMove(index, index + 1)
    }
  }
  return (
    <li data-folder-id={folder.id} className={card} aria-label={folder.label}>
      <div className={css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '2' })}>
        {compact ? (
          <div className={css({ display: 'flex', gap: '1' })}>
            <button
              type="button"
              data-touch
              className={iconButton}
              aria-label={`Move ${folder.label} up`}
              disabled={index === 0}
              onClick={() => onMove(index, index - 1)}
            >
              ↑
            </button>
            <button
              type="button"
              data-touch
              className={iconButton}
              aria-label={`Move ${folder.label} down`}
              disabled={index === count - 1}
              onClick={() => onMove(index, index + 1)}
            >
              ↓
            </button>
          </div>
        ) : (
          <button
            type="button"
            data-drag-handle
            className={cx(iconButton, css({ cursor: 'grab', touchAction: 'none' }))}
            aria-label={`Reorder ${folder.label}`}
            aria-describedby="folder-reorder-help"
            onKeyDown={onHandleKey}
            onPointerDown={onHandlePointerDown}
            onPointerMove={onHandlePointerMove}
          >
            <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" fill="currentColor">
              {[3, 8, 13].flatMap((y) => [5, 11].map((x) => <circle key={`${x}-${y}`} cx={x} cy={y} r="1.4" />))}
            </svg>
          </button>
        )}
        <span
          className={css({
            fontSize: 'xs',
            fontWeight: 'semibold',
            px: '2',
            py: '0.5',
            borderRadius: 'full',
            bg: remote ? 'accent.muted' : 'success.muted',
            color: remote ? 'accent.default' : 'success.fg',
          })}
        >
          {remote ? 'Remote' : 'Local'}
        </span>
      </div>
      <div className={css({ minW: '0', flex: '1' })}>
        <h2 className={css({ fontSize: 'lg', fontWeight: 'bold', overflowWrap: 'anywhere' })}>{folder.label}</h2>
        <p
          title={folder.path}
          className={css({
            fontFamily: 'mono',
            fontSize: 'xs',
            color: 'fg.muted',
            mt: '1',
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            whiteSpace: 'nowrap',
          })}
        >
          {folder.path}
        </p>
        <p className={css({ fontSize: 'xs', color: 'fg.subtle', mt: '1' })}>
          Added {new Date(folder.createdAt).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' })}
        </p>
      </div>
      <div className={css({ display: 'flex', alignItems: 'center', gap: '2', flexWrap: 'wrap' })}>
        <Link
          to="/player"
          search={{ fid: folder.id }}
          aria-label={`Play Folder ${folder.label}`}
          onClick={() => rememberFolder(folder.id)}
          className={cx(button({ size: 'sm' }), css({ flex: '1' }))}
        >
          <span aria-hidden="true">▶</span> Play Folder
        </Link>
        <Button variant="outline" size="sm" aria-label={`Edit ${folder.label}`} onClick={() => onEdit(folder)}>
          Edit
        </Button>
        <Button variant="ghost" size="sm" aria-label={`Delete ${folder.label}`} onClick={() => onDelete(folder)} className={css({ color: 'danger.fg' })}>
          Delete
        </Button>
      </div>
    </li>
  )
}
