// A centred modal dialog (Ark Dialog + Panda): title, optional description, body, footer.
// Focus is trapped and Escape closes it; `busy` blocks closing while a save is in flight.
import { Dialog } from '@ark-ui/react/dialog'
import { Portal } from '@ark-ui/react/portal'
import type { ReactNode } from 'react'
import { css } from 'styled-system/css'

type Props = {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: string
  description?: ReactNode
  children?: ReactNode
  busy?: boolean
  role?: 'dialog' | 'alertdialog'
}

export function Modal({ open, onOpenChange, title, description, children, busy, role = 'dialog' }: Props) {
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(e) => (busy && !e.open ? undefined : onOpenChange(e.open))}
      lazyMount
      unmountOnExit
      role={role}
      closeOnInteractOutside={!busy}
      closeOnEscape={!busy}
    >
      <Portal>
        <Dialog.Backdrop className={css({ position: 'fixed', inset: '0', bg: 'rgba(0,0,0,0.6)', backdropFilter: 'blur(2px)', zIndex: 40 })} />
        <Dialog.Positioner
          className={css({ position: 'fixed', inset: '0', display: 'flex', alignItems: 'center', justifyContent: 'center', p: '4', zIndex: 50 })}
        >
          <Dialog.Content
            className={css({
              w: 'full',
              maxW: 'md',
              bg: 'bg.surface',
              borderWidth: '1px',
              borderColor: 'border.default',
              borderRadius: '2xl',
              boxShadow: '2xl',
              p: { base: '5', md: '6' },
              display: 'flex',
              flexDirection: 'column',
              gap: '4',
            })}
          >
            <div>
              <Dialog.Title className={css({ fontSize: 'xl', fontWeight: 'bold' })}>{title}</Dialog.Title>
              {description && <Dialog.Description className={css({ color: 'fg.muted', fontSize: 'sm', mt: '1' })}>{description}</Dialog.Description>}
            </div>
            {children}
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  )
}

export const modalFooter = css({ display: 'flex', justifyContent: 'flex-end', gap: '3', mt: '2', flexWrap: 'wrap' })
