// Layout for members' screens (/folders, /player): the user guard.
import { createFileRoute, Outlet } from '@tanstack/react-router'
import { UserGuard } from '~/client/features/auth/guards'

export const Route = createFileRoute('/_member')({
  component: () => (
    <UserGuard>
      <Outlet />
    </UserGuard>
  ),
})
