// Layout for the admin area: the admin guard, the 'Admin' header and the sidebar.
import { createFileRoute, Outlet } from '@tanstack/react-router'
import { AdminGuard } from '~/client/features/auth/guards'
import { AdminShell } from '~/client/features/admin/admin-shell'

export const Route = createFileRoute('/_admin')({
  component: () => (
    <AdminGuard>
      <AdminShell>
        <Outlet />
      </AdminShell>
    </AdminGuard>
  ),
})
