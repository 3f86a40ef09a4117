// Toasts: one at a time (a new one replaces the old), 5 s by default,
// announced to screen readers. Dismissed toasts linger hidden for 1,000,000 ms before removal.
import { Toast, Toaster, createToaster } from '@ark-ui/react/toast'
import { css } from 'styled-system/css'

export const TOAST_DEFAULT_MS = 5000
export const TOAST_SUCCESS_MS = 3000
const TOAST_REMOVE_DELAY_MS = 1_000_000

// Top right, below the sticky top bar: bottom toasts covered Send buttons and player controls on phones.
const toaster = createToaster({
  placement: 'top-end',
  offsets: { top: '5rem', right: '1rem', bottom: '1rem', left: '1rem' },
  max: 1,
  duration: TOAST_DEFAULT_MS,
  removeDelay: TOAST_REMOVE_DELAY_MS,
  overlap: false,
})

type ToastInput = { title: string; description?: string; type?: 'info' | 'success' | 'error' | 'warning'; duration?: number }

export function toast({ title, description, type = 'info', duration }: ToastInput) {
  toaster.remove()
  return toaster.create({ title, description, type, duration: duration ?? (type === 'success' ? TOAST_SUCCESS_MS : TOAST_DEFAULT_MS) })
}

const root = css({
  bg: 'bg.surface',
  borderWidth: '1px',
  borderColor: 'border.default',
  borderRadius: 'xl',
  boxShadow: 'lg',
  p: '4',
  pr: '10',
  minW: '72',
  maxW: 'calc(100vw - 2rem)',
  position: 'relative',
  // The error tint over the opaque surface: the tint alone is translucent, and the page's text
  // showed through the toast on phones.
  '&[data-type=error]': { borderColor: 'danger.default', backgroundImage: 'linear-gradient(token(colors.danger.muted), token(colors.danger.muted))' },
  '&[data-type=success]': { borderColor: 'success.default' },
  '&[data-type=warning]': { borderColor: 'warning.default' },
  '&[data-state=closed]': { display: 'none' },
  translate: 'var(--x) var(--y)',
  scale: 'var(--scale)',
  zIndex: 'var(--z-index)',
  height: 'var(--height)',
  opacity: 'var(--opacity)',
  willChange: 'translate, opacity, scale',
  transition: 'translate 200ms, scale 200ms, opacity 200ms, height 200ms',
})

export function AppToaster() {
  return (
    <Toaster toaster={toaster}>
      {(t) => (
        <Toast.Root className={root} data-type={t.type}>
          <Toast.Title className={css({ fontWeight: 'semibold', fontSize: 'sm' })}>{t.title}</Toast.Title>
          {t.description && <Toast.Description className={css({ fontSize: 'sm', color: 'fg.muted', mt: '1' })}>{t.description}</Toast.Description>}
          <Toast.CloseTrigger
            aria-label="Dismiss notification"
            className={css({
              position: 'absolute',
              top: '2',
              right: '2',
              w: '7',
              h: '7',
              borderRadius: 'md',
              color: 'fg.muted',
              cursor: 'pointer',
              _hover: { bg: 'bg.subtle' },
            })}
          >
            ✕
          </Toast.CloseTrigger>
        </Toast.Root>
      )}
    </Toaster>
  )
}
