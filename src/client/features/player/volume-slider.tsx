// The volume slider (§2 "Control bar"): 0..1 in steps of 0.01, quick-set dots at 0/20/40/60/80/100 %
// and a percentage tooltip (shown after the spec's 100 ms delay while hovered, focused or dragged).
import { Slider } from '@ark-ui/react/slider'
import { useEffect, useRef, useState } from 'react'
import { css } from 'styled-system/css'

export const VOLUME_DOTS = [0, 0.2, 0.4, 0.6, 0.8, 1]
const TOOLTIP_DELAY_MS = 100

export function VolumeSlider({ value, onChange }: { value: number; onChange: (v: number) => void }) {
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

  return (
    <div className={css({ position: 'relative', w: '36', pt: '1', pb: '6' })} onPointerEnter={show} onPointerLeave={hide}>
      <Slider.Root
        min={0}
        max={1}
        step={0.01}
        value={[value]}
        onValueChange={(d) => onChange(d.value[0])}
        aria-label={['Volume']}
        getAriaValueText={(d) => `${Math.round(d.value * 100)}%`}
        onFocusChange={(d) => (d.focusedIndex >= 0 ? show() : hide())}
        thumbAlignment="center"
      >
        <Slider.Control className={css({ position: 'relative', h: '5', display: 'flex', alignItems: 'center', cursor: 'pointer' })}>
          <Slider.Track className={css({ flex: '1', h: '1.5', borderRadius: 'full', bg: 'bg.muted', overflow: 'hidden' })}>
            <Slider.Range className={css({ h: 'full', bgGradient: 'to-r', gradientFrom: 'accent.default', gradientTo: 'accent.pink' })} />
          </Slider.Track>
          <Slider.Thumb
            index={0}
            className={css({
              w: '4',
              h: '4',
              borderRadius: 'full',
              bg: 'white',
              boxShadow: 'md',
              outline: 'none',
              _focusVisible: { outline: '2px solid', outlineColor: 'accent.default', outlineOffset: '2px' },
            })}
          >
            <Slider.HiddenInput />
            {tip && (
              <span
                role="tooltip"
                data-testid="volume-tooltip"
                className={css({
                  position: 'absolute',
                  bottom: '6',
                  left: '50%',
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
          </Slider.Thumb>
        </Slider.Control>
      </Slider.Root>
      {/* Each dot is a 24 px target (WCAG 2.5.8) around an 8 px mark. */}
      <div className={css({ position: 'absolute', left: '0', right: '0', bottom: '0', h: '6' })}>
        {VOLUME_DOTS.map((dot) => (
          <button
            key={dot}
            type="button"
            aria-label={`Set volume to ${dot * 100}%`}
            onClick={() => onChange(dot)}
            data-active={value >= dot - 0.001 ? '' : undefined}
            className={css({
              position: 'absolute',
              top: '0',
              w: '6',
              h: '6',
              cursor: 'pointer',
              transform: 'translateX(-50%)',
              _after: { content: '""', position: 'absolute', top: '1', left: '2', w: '2', h: '2', borderRadius: 'full', bg: 'bg.muted' },
              '&[data-active]::after': { bg: 'accent.default' },
              _hover: { _after: { transform: 'scale(1.4)' } },
            })}
            style={{ left: `${dot * 100}%` }}
          />
        ))}
      </div>
    </div>
  )
}
