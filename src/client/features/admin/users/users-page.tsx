// /admin/users: every account in a table (cards below 768 px) with
// role badge, admin switch (disabled on the admin's own row), joined date, a manage-folders link
// to /admin/folders carrying the user, and delete (non-admins other than oneself, confirmed).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { useAuth } from '~/client/features/auth/auth-store'
import { errorMessage } from '~/client/global-errors'
import { useTRPC } from '~/client/trpc'
import { ConfirmDialog } from '~/client/ui/confirm-dialog'
import { button, Button } from '~/client/ui/button'
import { CenteredSpinner } from '~/client/ui/spinner'
import { Switch } from '~/client/ui/switch'
import { table, TableHead } from '~/client/ui/table'
import { toast } from '~/client/ui/toaster'
import { css, cx } from 'styled-system/css'
import { ErrorPanel, formatDate, pageTitle, RefreshIcon, RoleBadge } from './parts'
import { plural } from '~/shared/plural'
import { stack } from 'styled-system/patterns'

export type AdminUser = { id: string; username: string; email: string; isAdmin: boolean; createdAt: string }

export function UsersPage() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const auth = useAuth()
  const list = useQuery({ ...trpc.admin.users.list.queryOptions(), retry: false })
  const [deleting, setDeleting] = useState<AdminUser | null>(null)
  const [pendingRole, setPendingRole] = useState<string | null>(null)
  const listKey = trpc.admin.users.list.queryKey()

  useEffect(() => {
    if (list.error) toast({ title: 'Failed to fetch users', description: errorMessage(list.error, 'An unexpected error occurred'), type: 'error' })
  }, [list.error])

  const setRole = useMutation(
    trpc.admin.users.setRole.mutationOptions({
      onMutate: (vars) => setPendingRole(vars.id),
      onSettled: () => setPendingRole(null),
      onSuccess: (user) => {
        queryClient.setQueryData(listKey, (old) => old?.map((u) => (u.id === user.id ? user : u)))
        toast({
          title: 'Role updated',
          description: user.isAdmin ? 'User role has been upgraded to admin.' : 'User role has been changed to regular user.',
          type: 'success',
        })
      },
      onError: (error) => toast({ title: 'Failed to update user role', description: errorMessage(error, 'An unexpected error occurred'), type: 'error' }),
    }),
  )

  const remove = useMutation(
    trpc.admin.users.delete.mutationOptions({
      onSuccess: (result) => {
        const name = deleting?.username
        setDeleting(null)
        queryClient.setQueryData(listKey, (old) => old?.filter((u) => u.id !== result.id))
        toast({ title: 'User deleted', description: name ? `${name} has been deleted.` : 'The user has been deleted.', type: 'success' })
      },
      onError: (error) => {
        setDeleting(null)
        toast({ title: 'Failed to delete user', description: errorMessage(error, 'An unexpected error occurred'), type: 'error' })
      },
    }),
  )

  const users = list.data ?? []
  return (
    <section aria-labelledby="users-title" className={stack({ gap: '5' })}>
      <header className={css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '3', flexWrap: 'wrap' })}>
        <div>
          <h2 id="users-title" className={pageTitle}>
            Users
          </h2>
          <p className={css({ color: 'fg.muted', fontSize: 'sm', mt: '1' })}>
            {list.isSuccess ? `${plural(users.length, 'account')}, ${users.filter((u) => u.isAdmin).length} admin` : 'Accounts, roles and folders'}
          </p>
        </div>
        <Button variant="outline" size="sm" onClick={() => void list.refetch()} disabled={list.isFetching}>
          <RefreshIcon /> Refresh
        </Button>
      </header>

      {list.isPending ? (
        <CenteredSpinner label="Loading users" />
      ) : list.isError ? (
        <ErrorPanel message="Failed to fetch users" onRetry={() => void list.refetch()}>
          <p className={css({ fontSize: 'sm', color: 'fg.muted', mt: '1' })}>{errorMessage(list.error, 'An unexpected error occurred')}</p>
        </ErrorPanel>
      ) : users.length === 0 ? (
        <p className={css({ color: 'fg.muted', textAlign: 'center', py: '10' })}>No users found</p>
      ) : (
        <div
          className={css({
            position: 'relative',
            md: { bg: 'bg.surface', borderWidth: '1px', borderColor: 'border.default', borderRadius: 'xl', overflowX: 'auto' },
          })}
        >
          <table className={table({ layout: 'cards' })}>
            <caption className={css({ srOnly: true })}>Users</caption>
            <TableHead columns={['Username', 'Email', 'Role', 'Admin', 'Joined', { label: 'Actions', srOnly: true }]} />
            <tbody>
              {users.map((user) => {
                const self = user.id === auth.user?.id
                return (
                  <tr key={user.id} data-user-id={user.id}>
                    <td data-label="Username" className={css({ fontWeight: 'semibold', fontSize: { base: 'md', md: 'sm' }, _before: { display: 'none' } })}>
                      <span className={css({ overflowWrap: 'anywhere' })}>
                        {user.username}
                        {self && <span className={css({ color: 'fg.subtle', fontWeight: 'normal', ml: '1' })}>(you)</span>}
                      </span>
                    </td>
                    <td data-label="Email" className={css({ color: 'fg.muted' })}>
                      <span className={css({ overflowWrap: 'anywhere', textAlign: { base: 'right', md: 'left' } })}>{user.email}</span>
                    </td>
                    <td data-label="Role">
                      <RoleBadge isAdmin={user.isAdmin} />
                    </td>
                    <td data-label="Admin">
                      <Switch
                        label={self ? `Admin rights for ${user.username} (your own account cannot be changed)` : `Admin rights for ${user.username}`}
                        hideLabel
                        checked={user.isAdmin}
                        disabled={self || pendingRole === user.id}
                        onCheckedChange={(isAdmin) => setRole.mutate({ id: user.id, isAdmin })}
                      />
                    </td>
                    <td data-label="Joined" className={css({ color: 'fg.muted', whiteSpace: 'nowrap' })}>
                      {formatDate(user.createdAt)}
                    </td>
                    <td data-label="Actions" className={css({ _before: { display: 'none' } })}>
                      <div className={css({ display: 'flex', gap: '2', justifyContent: { base: 'flex-start', md: 'flex-end' }, flexWrap: 'wrap', w: 'full' })}>
                        <Link
                          to="/admin/folders"
                          search={{ userId: user.id, username: user.username }}
                          aria-label={`Manage folders of ${user.username}`}
                          className={cx(button({ variant: 'outline', size: 'sm' }))}
                        >
                          Manage folders
                        </Link>
                        {!user.isAdmin && !self && (
                          <Button
                            variant="ghost"
                            size="sm"
                            aria-label={`Delete ${user.username}`}
                            className={css({ color: 'danger.fg' })}
                            onClick={() => setDeleting(user)}
                          >
                            Delete
                          </Button>
                        )}
                      </div>
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      )}

      <ConfirmDialog
        open={deleting !== null}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate({ id: deleting.id })}
        busy={remove.isPending}
        title="Delete User"
        description={
          deleting
            ? `Are you sure you want to delete the user "${deleting.username}"? Their folders, likes and sessions are removed with the account. This action cannot be undone.`
            : undefined
        }
      />
    </section>
  )
}
