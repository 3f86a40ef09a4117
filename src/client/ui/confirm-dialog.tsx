// The confirmation before an action that cannot be undone: an alert dialog with Cancel and a danger
// button saying what it does, which says what is under way while it runs ("Deleting...") and
// keeps the dialog open until it settles.
import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { Button } from './button'
import { Modal, modalFooter } from './modal'

// At least 44 px tall: a touch target a thumb hits on a phone.
const touchTarget = css({ minH: '11' })

type Props = {
  open: boolean
  onCancel: () => void
  onConfirm: () => void
  title: string
  description?: ReactNode
  /** Details shown between the description and the buttons (what exactly goes). */
  children?: ReactNode
  busy: boolean
  confirmLabel?: string
  busyLabel?: string
}

export function ConfirmDialog({ open, onCancel, onConfirm, title, description, children, busy, confirmLabel = 'Delete', busyLabel = 'Deleting...' }: Props) {
  return (
    <Modal open={open} onOpenChange={(next) => !next && onCancel()} busy={busy} role="alertdialog" title={title} description={description}>
      {children}
      <div className={modalFooter}>
        <Button variant="outline" className={touchTarget} onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button variant="danger" className={touchTarget} onClick={onConfirm} aria-busy={busy} disabled={busy}>
          {busy ? busyLabel : confirmLabel}
        </Button>
      </div>
    </Modal>
  )
}
