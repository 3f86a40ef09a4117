// The text input's look, apart from TextField: the top bar's search box wears it on every page,
// and importing it must not pull the whole field component into the first chunk.
import { css } from 'styled-system/css'

export const inputClass = css({
  w: 'full',
  h: '11',
  px: '3',
  borderRadius: 'lg',
  borderWidth: '1px',
  borderColor: 'border.default',
  bg: 'bg.subtle',
  color: 'fg.default',
  fontSize: 'sm',
  _placeholder: { color: 'fg.subtle' },
  _focus: { borderColor: 'accent.default', outline: 'none' },
  '&[aria-invalid=true]': { borderColor: 'danger.default' },
})
