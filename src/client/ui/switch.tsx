// An on/off switch on Ark's Switch: a real checkbox underneath (keyboard, forms) exposed as
// role="switch", with a label that may be visually hidden but always names it.
import { Switch as ArkSwitch } from '@ark-ui/react/switch'
import { css, cx } from 'styled-system/css'

type Props = {
  label: string
  checked: boolean
  onCheckedChange: (checked: boolean) => void
  disabled?: boolean
  /** Hide the label visually (it still names the control). */
  hideLabel?: boolean
  className?: string
}

const control = css({
  display: 'inline-flex',
  alignItems: 'center',
  flexShrink: 0,
  w: '10',
  h: '6',
  p: '0.5',
  borderRadius: 'full',
  bg: 'bg.muted',
  borderWidth: '1px',
  borderColor: 'border.default',
  transition: 'background 0.15s',
  '&[data-state=checked]': { bg: 'accent.default', borderColor: 'accent.default' },
  '&[data-focus-visible]': { outline: '2px solid', outlineColor: 'accent.default', outlineOffset: '2px' },
})

const thumb = css({
  w: '4',
  h: '4',
  borderRadius: 'full',
  bg: 'white',
  boxShadow: 'sm',
  transition: 'transform 0.15s',
  '&[data-state=checked]': { transform: 'translateX(1rem)' },
})

const srOnly = css({ srOnly: true })

export function Switch({ label, checked, onCheckedChange, disabled, hideLabel, className }: Props) {
  return (
    <ArkSwitch.Root
      checked={checked}
      disabled={disabled}
      onCheckedChange={(e) => onCheckedChange(e.checked)}
      className={cx(
        css({ display: 'inline-flex', alignItems: 'center', gap: '2', cursor: 'pointer', '&[data-disabled]': { cursor: 'not-allowed', opacity: 0.5 } }),
        className,
      )}
    >
      <ArkSwitch.Control className={control}>
        <ArkSwitch.Thumb className={thumb} />
      </ArkSwitch.Control>
      <ArkSwitch.Label className={hideLabel ? srOnly : css({ fontSize: 'sm' })}>{label}</ArkSwitch.Label>
      <ArkSwitch.HiddenInput role="switch" />
    </ArkSwitch.Root>
  )
}
