// The rows of the app's lists: one line of text cut with an ellipsis, the button that fills a row
// of a long virtual list (a playlist's songs, a podcast's episodes), and a row linking to an item
// of an index (playlists, podcasts). Each 44 px tall at least, for a finger.
import { css } from 'styled-system/css'

export const ellipsis = css({ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' })

/** A list entry's main button: the current entry (aria-current) in the accent colour. */
export const entryRow = css({
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  flex: '1',
  minW: 0,
  minH: '11',
  px: '2',
  textAlign: 'left',
  borderRadius: 'md',
  cursor: 'pointer',
  _hover: { bg: 'bg.subtle' },
  _disabled: { cursor: 'default', opacity: 0.55, _hover: { bg: 'transparent' } },
  '&[aria-current=true]': { color: 'accent.default', bg: 'bg.subtle', fontWeight: 'semibold' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent.default', outlineOffset: '-2px' },
})

/** A link to one item of an index, its tile beside its name. */
export const indexRow = css({
  display: 'flex',
  alignItems: 'center',
  gap: '4',
  p: '2',
  minH: '11',
  borderRadius: 'xl',
  _hover: { bg: 'bg.subtle' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent.default' },
})
