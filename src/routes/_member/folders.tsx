// /folders: the members' folder list.
import { createFileRoute } from '@tanstack/react-router'
import { FoldersPage } from '~/client/features/folders/folders-page'

export const Route = createFileRoute('/_member/folders')({
  head: () => ({ meta: [{ title: 'My Folders · Vibes' }] }),
  component: FoldersPage,
})
