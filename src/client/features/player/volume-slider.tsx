// The volume slider: 0..1 in steps of 0.01, quick-set dots at 0/20/40/60/80/100 %
// and a percentage tooltip (shown after a 100 ms delay while hovered, focused or dragged).
// A native range input like the seek bar: Ark's slider cost ~6 KiB of the / budget (decision 033).
import { type KeyboardEvent, useEffect, useRef, useState } from 'react'
import { css, cx } from 'styled-system/css'

export const VOLUME_DOTS = [0, 0.2, 0.4, 0.6, 0.8, 1]
const TOOLTIP_DELAY_MS = 100

const nearestDot = (v: number) => VOLUME_DOTS.reduce((best, d, i) => (Math.abs(d - v) < Math.abs(VOLUME_DOTS[best] - v) ? i : best), 0)

export function VolumeSlider({ value, onChange, className }: { value: number; onChange: (v: number) => void; className?: string }) {
  const [tip, setTip] = useState(false)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const show = () => {
    if (timer.current) clearTimeout(timer.current)
    timer.current = setTimeout(() => setTip(true), TOOLTIP_DELAY_MS)
  }
  const hide = () => {
    if (timer.current) clearTimeout(timer.current)
    setTip(false)
  }
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), [])
  const pct = Math.round(value * 100)
  // The checked dot is the one at the volume (none between dots); the tab stop is the nearest.
  const checked = VOLUME_DOTS.findIndex((d) => Math.abs(d - value) < 0.005)
  const stop = checked >= 0 ? checked : nearestDot(value)
  const onDotKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const last = VOLUME_DOTS.length - 1
    const moves: Record<string, number> = { ArrowLeft: stop - 1, ArrowDown: stop - 1, ArrowRight: stop + 1, ArrowUp: stop + 1, Home: 0, End: last }
    if (!(e.key in moves)) return
    e.preventDefault()
    const to = Math.max(0, Math.min(last, moves[e.key]))
    onChange(VOLUME_DOTS[to])
    e.currentTarget.querySelectorAll<HTMLElement>('[role=radio]')[to]?.focus()
  }

  return (
    <div className={cx(css({ position: 'relative', w: '36', pt: '1', pb: '6' }), className)} onPointerEnter={show} onPointerLeave={hide}>
      {/* A 44 px tall slider on phones (a finger's target), 24 px with a mouse. */}
      <div className={css({ position: 'relative', h: { base: '11', lg: '6' }, display: 'flex', alignItems: 'center' })}>
        <input
          type="range"
          aria-label="Volume"
          min={0}
          max={1}
          step={0.01}
          value={value}
          onChange={(e) => onChange(Number(e.target.value))}
          // Stated as attributes too: the 0–1 scale and "80%" for assistive technology.
          aria-valuemin={0}
          aria-valuemax={1}
          aria-valuenow={value}
          aria-valuetext={`${pct}%`}
          onFocus={show}
          onBlur={hide}
          className={css({ w: 'full', h: 'full', accentColor: 'var(--colors-accent-default)', cursor: 'pointer' })}
        />
        {tip && (
          <span
            role="tooltip"
            data-testid="volume-tooltip"
            style={{ left: `${pct}%` }}
            className={css({
              position: 'absolute',
              bottom: '6',
              transform: 'translateX(-50%)',
              bg: 'bg.surface',
              borderWidth: '1px',
              borderColor: 'border.default',
              color: 'fg.default',
              fontSize: 'xs',
              fontWeight: 'semibold',
              px: '1.5',
              py: '0.5',
              borderRadius: 'md',
              whiteSpace: 'nowrap',
              pointerEvents: 'none',
            })}
          >
            {pct}%
          </span>
        )}
      </div>
      {/* The quick-set dots: one radio group, so one Tab stop; the arrow keys (and Home/End) move
          between the dots and set the volume (WAI-ARIA radio group). Each dot is a 24 px target
          (WCAG 2.5.8) around an 8 px mark. */}
      <div
        role="radiogroup"
        aria-label="Volume presets"
        onKeyDown={onDotKey}
        className={css({ position: 'absolute', left: '0', right: '0', bottom: '0', h: '6' })}
      >
        {VOLUME_DOTS.map((dot, i) => (
          // biome-ignore lint/a11y/useSemanticElements: radio buttons that set a level at once, styled as dots
          <button
            key={dot}
            type="button"
            role="radio"
            aria-checked={i === checked}
            tabIndex={i === stop ? 0 : -1}
            aria-label={`Set volume to ${dot * 100}%`}
            onClick={() => onChange(dot)}
            data-active={value >= dot - 0.001 ? '' : undefined}
            className={css({
              position: 'absolute',
              top: '0',
              w: '6',
              h: '6',
              cursor: 'pointer',
              borderRadius: 'full',
              transform: 'translateX(-50%)',
              _after: { content: '""', position: 'absolute', top: '1', left: '2', w: '2', h: '2', borderRadius: 'full', bg: 'bg.muted' },
              '&[data-active]::after': { bg: 'accent.default' },
              _hover: { _after: { transform: 'scale(1.4)' } },
              _focusVisible: { outline: '2px solid', outlineColor: 'accent.default', outlineOffset: '-2px' },
            })}
            style={{ left: `${dot * 100}%` }}
          />
        ))}
      </div>
    </div>
  )
}
