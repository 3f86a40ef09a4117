// A screen's or section's header: the title, a muted line under it, and the row that puts the
// title on the left and its controls (period, Refresh) on the right, wrapping on a phone.
import { sva } from 'styled-system/css'

export const pageHeader = sva({
  slots: ['root', 'title', 'description'],
  base: {
    root: { display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', justifyContent: 'space-between', gap: '4' },
    title: { fontSize: 'xl', fontWeight: 'bold' },
    description: { fontSize: 'sm', color: 'fg.muted' },
  },
})
