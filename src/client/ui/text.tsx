// Secondary text: captions, empty-list lines, the figures beside a name. Muted so the eye goes to
// the primary text first; small, or extra small for the finest print.
import { cva } from 'styled-system/css'

export const mutedText = cva({
  base: { color: 'fg.muted' },
  variants: { size: { xs: { fontSize: 'xs' }, sm: { fontSize: 'sm' } } },
  defaultVariants: { size: 'sm' },
})
