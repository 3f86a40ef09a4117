// /folders: the members' folder list (built out by the library issue).
import { createFileRoute } from '@tanstack/react-router'
import { css } from 'styled-system/css'

export const Route = createFileRoute('/_member/folders')({
  head: () => ({ meta: [{ title: 'My Folders · Vibes' }] }),
  component: () => <h1 className={css({ fontSize: '3xl', fontWeight: 'bold' })}>My Folders</h1>,
})
