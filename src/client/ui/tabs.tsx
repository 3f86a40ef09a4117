// Tabs on Ark's Tabs (roving focus with the arrow keys, tab/tabpanel roles): a row of triggers that
// wraps on narrow screens, and panels mounted when first shown.
import { Tabs as ArkTabs } from '@ark-ui/react/tabs'
import type { ReactNode } from 'react'
import { css } from 'styled-system/css'
import { stack } from 'styled-system/patterns'

export type TabItem = { value: string; label: string; content: ReactNode }

const list = css({
  display: 'flex',
  gap: '1',
  borderBottomWidth: '1px',
  borderColor: 'border.default',
  // Phones wrap the row: a tab scrolled off the edge, with no hint that it was there, went unfound.
  flexWrap: 'wrap',
})

const trigger = css({
  px: { base: '3', sm: '4' },
  py: '2.5',
  fontSize: 'sm',
  fontWeight: 'medium',
  color: 'fg.muted',
  whiteSpace: 'nowrap',
  cursor: 'pointer',
  borderBottomWidth: '2px',
  borderColor: 'transparent',
  mb: '-1px',
  _hover: { color: 'fg.default' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent.default', outlineOffset: '-2px', borderRadius: 'md' },
  '&[data-selected]': { color: 'fg.default', borderColor: 'accent.default' },
})

export function Tabs({
  items,
  value,
  onValueChange,
  label,
}: {
  items: readonly TabItem[]
  value: string
  onValueChange: (value: string) => void
  label: string
}) {
  return (
    <ArkTabs.Root value={value} onValueChange={(d) => onValueChange(d.value)} lazyMount className={stack({ gap: '5' })}>
      <ArkTabs.List aria-label={label} className={list}>
        {items.map((item) => (
          <ArkTabs.Trigger key={item.value} value={item.value} className={trigger}>
            {item.label}
          </ArkTabs.Trigger>
        ))}
      </ArkTabs.List>
      {items.map((item) => (
        <ArkTabs.Content key={item.value} value={item.value} className={css({ outline: 'none' })}>
          {item.content}
        </ArkTabs.Content>
      ))}
    </ArkTabs.Root>
  )
}
