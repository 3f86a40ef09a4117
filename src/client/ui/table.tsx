// Data tables: muted column names over rows ruled by lines; a cell or column name with the `num`
// class holds a figure (right-aligned, tabular digits, so a column of counts lines up).
// Two layouts: `ruled`, the admin panels' compact table, and `cards`, the users list, where below
// md each row becomes a card whose cells show their column name (the cell's data-label).
import type { ReactNode } from 'react'
import { css, cva, cx } from 'styled-system/css'

export const table = cva({
  base: {
    w: 'full',
    fontSize: 'sm',
    borderCollapse: 'collapse',
    '& th': { textAlign: 'left', color: 'fg.muted' },
    '& .num': { textAlign: 'right', fontVariantNumeric: 'tabular-nums' },
  },
  variants: {
    layout: {
      ruled: {
        '& th': { fontWeight: 'medium', px: '2', py: '2', borderBottomWidth: '1px', borderColor: 'border.default', whiteSpace: 'nowrap' },
        '& td': { px: '2', py: '2', borderBottomWidth: '1px', borderColor: 'border.default', verticalAlign: 'top' },
        '& tr:last-child td': { borderBottomWidth: '0' },
      },
      cards: {
        display: { base: 'block', md: 'table' },
        '& thead': { display: { base: 'none', md: 'table-header-group' } },
        '& tbody': { display: { base: 'flex', md: 'table-row-group' }, flexDirection: 'column', gap: '3' },
        '& tr': {
          display: { base: 'grid', md: 'table-row' },
          gap: '2',
          p: { base: '4', md: '0' },
          bg: { base: 'bg.surface', md: 'transparent' },
          borderWidth: { base: '1px', md: '0' },
          borderColor: 'border.default',
          borderRadius: { base: 'xl', md: '0' },
        },
        '& tbody tr': { md: { borderTopWidth: '1px', _hover: { bg: 'bg.subtle' } } },
        '& th': { fontWeight: 'semibold', fontSize: 'xs', textTransform: 'uppercase', letterSpacing: 'wide', px: '3', py: '2' },
        '& td': {
          display: { base: 'flex', md: 'table-cell' },
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: '3',
          px: { base: '0', md: '3' },
          py: { base: '0', md: '3' },
          verticalAlign: 'middle',
          minW: '0',
          _before: { base: { content: 'attr(data-label)', color: 'fg.muted', fontSize: 'xs', flexShrink: 0 }, md: { content: 'none' } },
        },
      },
    },
  },
  defaultVariants: { layout: 'ruled' },
})

/** A column name: text, or a figure column (`numeric`), one read only to screen readers (`srOnly`), or a sorted one. */
export type Column = string | { label: ReactNode; numeric?: boolean; srOnly?: boolean; className?: string; sort?: 'ascending' | 'descending' }

/** The header row: one `th scope="col"` a column. */
export function TableHead({ columns }: { columns: Column[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column, i) => {
          const c = typeof column === 'string' ? { label: column } : column
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed for the table's life
            <th key={i} scope="col" aria-sort={c.sort} className={cx(c.numeric && 'num', c.className) || undefined}>
              {c.srOnly ? <span className={css({ srOnly: true })}>{c.label}</span> : c.label}
            </th>
          )
        })}
      </tr>
    </thead>
  )
}
