// A labelled input with its error (shown once touched) and an optional show-password toggle.
//
// What was typed before the page hydrated (a slow phone shows the server's form seconds before its
// scripts run, and autofill fills it early too) is taken into the form's state once, when the
// field first mounts: the DOM holds it, the state does not, and the next render of the controlled
// field would otherwise wipe it while the submit button ignores it.
import { useId, useLayoutEffect, useRef, useState, type InputHTMLAttributes, type ReactNode } from 'react'
import { css, cx } from 'styled-system/css'
import { inputClass } from './input-class'
import { stack } from 'styled-system/patterns'

export { inputClass }

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> & {
  label: string
  error?: string
  hint?: ReactNode
  onValueChange: (value: string) => void
  revealable?: boolean
  multiline?: boolean
}

export function TextField({ label, error, hint, onValueChange, revealable, multiline, className, type = 'text', ...input }: Props) {
  const id = useId()
  const [revealed, setRevealed] = useState(false)
  const element = useRef<HTMLInputElement & HTMLTextAreaElement>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, at hydration (see the header)
  useLayoutEffect(() => {
    const typed = element.current?.value
    if (typed && typed !== input.value) onValueChange(typed)
  }, [])
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined
  const common = { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy }
  return (
    <div className={cx(stack({ gap: '1.5' }), className)}>
      <label htmlFor={id} className={css({ fontSize: 'sm', fontWeight: 'medium', color: 'fg.default' })}>
        {label}
      </label>
      <div className={css({ position: 'relative' })}>
        {multiline ? (
          <textarea
            {...common}
            ref={element}
            name={input.name}
            value={input.value as string}
            placeholder={input.placeholder}
            disabled={input.disabled}
            onBlur={input.onBlur as never}
            rows={5}
            onChange={(e) => onValueChange(e.target.value)}
            className={cx(inputClass, css({ h: 'auto', py: '2', resize: 'vertical' }))}
          />
        ) : (
          <input
            {...input}
            {...common}
            ref={element}
            type={revealable && revealed ? 'text' : type}
            onChange={(e) => onValueChange(e.target.value)}
            className={cx(inputClass, revealable ? css({ pr: '16' }) : undefined)}
          />
        )}
        {revealable && (
          <button
            type="button"
            onClick={() => setRevealed((r) => !r)}
            aria-pressed={revealed}
            aria-label={revealed ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
            className={css({
              position: 'absolute',
              right: '2',
              top: '50%',
              transform: 'translateY(-50%)',
              fontSize: 'xs',
              color: 'fg.muted',
              px: '2',
              py: '1',
              cursor: 'pointer',
              _hover: { color: 'fg.default' },
            })}
          >
            {revealed ? 'Hide' : 'Show'}
          </button>
        )}
      </div>
      {hint && !error && (
        <p id={`${id}-hint`} className={css({ fontSize: 'xs', color: 'fg.subtle' })}>
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className={css({ fontSize: 'xs', color: 'danger.fg' })}>
          {error}
        </p>
      )}
    </div>
  )
}
