// One choice in a list the user picks from (a folder in the library browser, a playlist to add
// to): a full-width button row, tall enough to tap, its icon and text in line. The caller sets
// the gap between them.
import { css } from 'styled-system/css'

export const listChoice = css({
  display: 'flex',
  alignItems: 'center',
  w: 'full',
  minH: '11',
  px: '3',
  borderRadius: 'md',
  textAlign: 'left',
  cursor: 'pointer',
  _hover: { bg: 'bg.subtle' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent.default', outlineOffset: '-2px' },
  _disabled: { opacity: 0.5, cursor: 'wait' },
})
