// A labelled single-choice select on Ark's Select (keyboard, typeahead, screen readers), with a
// hidden native <select> so it also works inside plain forms.
import { Portal } from '@ark-ui/react/portal'
import { createListCollection, Select } from '@ark-ui/react/select'
import { useMemo } from 'react'
import { css, cx } from 'styled-system/css'
import { Icon } from './icon'
import { stack } from 'styled-system/patterns'

export type SelectOption = { value: string; label: string }

type Props = {
  label: string
  options: readonly SelectOption[]
  value: string
  onValueChange: (value: string) => void
  /** Hide the label visually (it still names the control). */
  hideLabel?: boolean
  className?: string
  disabled?: boolean
}

const trigger = css({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: '3',
  w: 'full',
  h: '10',
  px: '3',
  borderRadius: 'lg',
  borderWidth: '1px',
  borderColor: 'border.default',
  bg: 'bg.subtle',
  color: 'fg.default',
  fontSize: 'sm',
  cursor: 'pointer',
  _hover: { borderColor: 'fg.subtle' },
  _focusVisible: { borderColor: 'accent.default' },
  '&[data-state=open]': { borderColor: 'accent.default' },
  _disabled: { opacity: 0.5, cursor: 'not-allowed' },
})

const content = css({
  bg: 'bg.surface',
  borderWidth: '1px',
  borderColor: 'border.default',
  borderRadius: 'xl',
  boxShadow: 'xl',
  p: '1.5',
  zIndex: 50,
  maxH: '72',
  overflowY: 'auto',
  outline: 'none',
})

const item = css({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: '3',
  px: '3',
  py: '2',
  borderRadius: 'md',
  fontSize: 'sm',
  cursor: 'pointer',
  '&[data-highlighted]': { bg: 'bg.subtle' },
  '&[data-state=checked]': { color: 'accent.default', fontWeight: 'semibold' },
})

const visuallyHidden = css({ srOnly: true })

export function SelectField({ label, options, value, onValueChange, hideLabel, className, disabled }: Props) {
  const collection = useMemo(() => createListCollection({ items: [...options] }), [options])
  return (
    <Select.Root
      collection={collection}
      value={[value]}
      disabled={disabled}
      onValueChange={(d) => d.value[0] && onValueChange(d.value[0])}
      positioning={{ sameWidth: true, gutter: 4 }}
      lazyMount
      unmountOnExit
      className={cx(stack({ gap: '1.5' }), className)}
    >
      <Select.Label className={hideLabel ? visuallyHidden : css({ fontSize: 'sm', fontWeight: 'medium' })}>{label}</Select.Label>
      <Select.Control>
        <Select.Trigger className={trigger}>
          <Select.ValueText placeholder="Select…" />
          <Select.Indicator
            aria-hidden
            className={css({ color: 'fg.muted', transition: 'transform 0.15s', '&[data-state=open]': { transform: 'rotate(180deg)' } })}
          >
            <Icon name="down" size={16} />
          </Select.Indicator>
        </Select.Trigger>
      </Select.Control>
      <Portal>
        <Select.Positioner>
          <Select.Content className={content}>
            {collection.items.map((option) => (
              <Select.Item key={option.value} item={option} className={item}>
                <Select.ItemText>{option.label}</Select.ItemText>
                <Select.ItemIndicator aria-hidden>✓</Select.ItemIndicator>
              </Select.Item>
            ))}
          </Select.Content>
        </Select.Positioner>
      </Portal>
      <Select.HiddenSelect />
    </Select.Root>
  )
}
