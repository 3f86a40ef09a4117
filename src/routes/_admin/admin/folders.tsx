// /admin/folders?userId=&username=: the selected user arrives in the search params (from the
// Users screen's manage-folders button or a click in the list), so a reload keeps it.
import { createFileRoute } from '@tanstack/react-router'
import { AdminFoldersPage } from '~/client/features/admin/folders/folders-page'

export type AdminFoldersSearch = { userId?: string; username?: string }

const text = (v: unknown, max: number) => (typeof v === 'string' && v.length > 0 && v.length <= max ? v : undefined)

export const Route = createFileRoute('/_admin/admin/folders')({
  validateSearch: (search: Record<string, unknown>): AdminFoldersSearch => {
    const userId = text(search.userId, 64)
    const username = userId ? text(search.username, 64) : undefined
    return { ...(userId ? { userId } : {}), ...(username ? { username } : {}) }
  },
  head: () => ({ meta: [{ title: 'Folders · Admin · Vibes' }] }),
  component: AdminFoldersPage,
})
