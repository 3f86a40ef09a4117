// The bordered surface every screen puts its parts on: stat tiles, admin panels, the player's
// lists and its main card. One recipe so the border, radius and padding are chosen, not copied.
import { cva } from 'styled-system/css'

export const card = cva({
  base: { bg: 'bg.surface', borderWidth: '1px', borderColor: 'border.default' },
  variants: {
    size: {
      /** A stat tile. */
      sm: { borderRadius: 'xl', p: '4' },
      /** An admin panel. */
      md: { borderRadius: 'xl', p: { base: '4', md: '5' }, minW: '0' },
      /** A list beside the player. */
      list: { borderRadius: '2xl', p: { base: '3', md: '4' } },
      /** The player's main card. */
      lg: { borderRadius: '2xl', p: { base: '4', md: '6' } },
    },
  },
  defaultVariants: { size: 'md' },
})
