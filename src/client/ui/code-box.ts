// A value the user reads or copies whole (a new app key, a share link): monospace in a framed box,
// broken anywhere so a long token never widens the page.
import { css } from 'styled-system/css'

export const codeBox = css({
  fontFamily: 'mono',
  fontSize: 'sm',
  bg: 'bg.subtle',
  borderWidth: '1px',
  borderColor: 'border.default',
  borderRadius: 'lg',
  px: '3',
  py: '2',
  wordBreak: 'break-all',
})
