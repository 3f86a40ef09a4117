// A hover/focus tooltip on Ark's Tooltip that opens after 100 ms. The trigger is the
// child element as-is (asChild), so it can wrap a disabled button inside a <span>.
import { Portal } from '@ark-ui/react/portal'
import { Tooltip as ArkTooltip } from '@ark-ui/react/tooltip'
import type { ReactElement, ReactNode } from 'react'
import { css } from 'styled-system/css'

export const TOOLTIP_DELAY_MS = 100

export function Tooltip({ content, children }: { content: ReactNode; children: ReactElement }) {
  return (
    <ArkTooltip.Root openDelay={TOOLTIP_DELAY_MS} closeDelay={TOOLTIP_DELAY_MS} lazyMount unmountOnExit>
      <ArkTooltip.Trigger asChild>{children}</ArkTooltip.Trigger>
      <Portal>
        <ArkTooltip.Positioner>
          <ArkTooltip.Content
            className={css({
              bg: 'bg.muted',
              color: 'fg.default',
              fontSize: 'xs',
              px: '2.5',
              py: '1.5',
              borderRadius: 'md',
              boxShadow: 'lg',
              zIndex: 60,
              maxW: '64',
            })}
          >
            {content}
          </ArkTooltip.Content>
        </ArkTooltip.Positioner>
      </Portal>
    </ArkTooltip.Root>
  )
}
