// /admin/folders: a searchable user list
// on the left; the selected user's folders on the right (Add, Edit, Delete, Play preview toast);
// Refresh and Bulk Add Folders at the top. The selection lives in the search params.
import { useQuery } from '@tanstack/react-query'
import { useNavigate, useSearch } from '@tanstack/react-router'
import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react'
import { errorMessage } from '~/client/global-errors'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { Spinner } from '~/client/ui/spinner'
import { TextField } from '~/client/ui/text-field'
import { toast } from '~/client/ui/toaster'
import { css, cx } from 'styled-system/css'
import { AdminBadge, ErrorPanel, pageTitle, panel, RefreshIcon } from '../users/parts'
import { BulkAddDialog } from './bulk-add-dialog'
import { UserFolders } from './user-folders'
import { stack } from 'styled-system/patterns'

type User = { id: string; username: string; email: string; isAdmin: boolean }

export function AdminFoldersPage() {
  const search = useSearch({ from: '/_admin/admin/folders' })
  const navigate = useNavigate({ from: '/admin/folders' })
  const trpc = useTRPC()
  const users = useQuery({ ...trpc.admin.users.list.queryOptions(), retry: false })
  const [bulkOpen, setBulkOpen] = useState(false)
  const [refreshKey, setRefreshKey] = useState(0)
  const folderPanel = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (users.error) toast({ title: 'Failed to fetch users', description: errorMessage(users.error, 'An unexpected error occurred'), type: 'error' })
  }, [users.error])

  const known = search.userId ? users.data?.find((u) => u.id === search.userId) : undefined
  const selected = search.userId ? { id: search.userId, username: known?.username ?? search.username ?? 'Selected user', email: known?.email } : null

  const select = (user: User) => {
    void navigate({ search: { userId: user.id, username: user.username }, replace: true })
    // On phones the folders sit below the list: bring them into view.
    if (window.matchMedia('(max-width: 767px)').matches)
      requestAnimationFrame(() => folderPanel.current?.scrollIntoView({ behavior: 'smooth', block: 'start' }))
  }

  return (
    <section aria-labelledby="folders-title" className={stack({ gap: '5' })}>
      <header className={css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '3', flexWrap: 'wrap' })}>
        <div>
          <h2 id="folders-title" className={pageTitle}>
            Folder Management
          </h2>
          <p className={css({ color: 'fg.muted', fontSize: 'sm', mt: '1' })}>Manage the music folders of any user.</p>
        </div>
        <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
          <Button
            variant="outline"
            size="sm"
            disabled={users.isFetching}
            onClick={() => {
              void users.refetch()
              setRefreshKey((k) => k + 1)
            }}
          >
            <RefreshIcon /> Refresh
          </Button>
          <Button size="sm" onClick={() => setBulkOpen(true)} disabled={!users.isSuccess}>
            <span aria-hidden="true">+</span> Bulk Add Folders
          </Button>
        </div>
      </header>

      <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', md: 'minmax(240px, 320px) 1fr' }, gap: '5', alignItems: 'start' })}>
        <UserList query={users} selectedId={search.userId} onSelect={select} />
        <div ref={folderPanel} className={css({ scrollMarginTop: '20', minW: '0' })}>
          {selected ? (
            <UserFolders key={selected.id} user={selected} refreshKey={refreshKey} />
          ) : (
            <div className={cx(panel, css({ textAlign: 'center', py: '16' }))}>
              <h3 className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>Select a User</h3>
              <p className={css({ color: 'fg.muted', fontSize: 'sm', mt: '1' })}>Choose a user from the list to see and manage their folders.</p>
            </div>
          )}
        </div>
      </div>

      <BulkAddDialog open={bulkOpen} onOpenChange={setBulkOpen} users={users.data ?? []} />
    </section>
  )
}

type UserListProps = {
  query: { data?: User[]; isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown }
  selectedId?: string
  onSelect: (user: User) => void
}

function UserList({ query, selectedId, onSelect }: UserListProps) {
  const [term, setTerm] = useState('')
  const deferred = useDeferredValue(term)
  const filtered = useMemo(() => {
    const needle = deferred.trim().toLocaleLowerCase()
    const all = query.data ?? []
    return needle ? all.filter((u) => u.username.toLocaleLowerCase().includes(needle) || u.email.toLocaleLowerCase().includes(needle)) : all
  }, [query.data, deferred])

  return (
    <div className={cx(panel, stack({ gap: '3' }))}>
      <TextField label="Search users" type="search" placeholder="Username or email" autoComplete="off" value={term} onValueChange={setTerm} />
      <h3 className={css({ fontWeight: 'semibold' })} aria-live="polite">
        Users ({filtered.length})
      </h3>
      {query.isPending ? (
        <div className={css({ display: 'flex', justifyContent: 'center', py: '6' })}>
          <Spinner label="Loading users" />
        </div>
      ) : query.isError ? (
        <ErrorPanel message={errorMessage(query.error, 'Failed to fetch users')} onRetry={() => void query.refetch()} />
      ) : filtered.length === 0 ? (
        <p className={css({ color: 'fg.muted', fontSize: 'sm', py: '4', textAlign: 'center' })}>No users found</p>
      ) : (
        <ul
          aria-label="Users"
          className={css({
            position: 'relative',
            display: 'flex',
            flexDirection: 'column',
            gap: '1',
            maxH: { base: '72', md: '60vh' },
            overflowY: 'auto',
            mx: '-1',
            px: '1',
          })}
        >
          {filtered.map((u) => {
            const current = u.id === selectedId
            return (
              <li key={u.id}>
                <button
                  type="button"
                  aria-current={current ? 'true' : undefined}
                  onClick={() => onSelect(u)}
                  className={css({
                    w: 'full',
                    display: 'flex',
                    alignItems: 'center',
                    gap: '2',
                    textAlign: 'left',
                    px: '3',
                    py: '2',
                    borderRadius: 'lg',
                    cursor: 'pointer',
                    borderWidth: '1px',
                    borderColor: 'transparent',
                    _hover: { bg: 'bg.subtle' },
                    '&[aria-current=true]': { bg: 'accent.muted', borderColor: 'accent.default' },
                  })}
                >
                  <span className={css({ display: 'flex', flexDirection: 'column', minW: '0', flex: '1' })}>
                    <span className={css({ fontWeight: 'medium', fontSize: 'sm', overflowWrap: 'anywhere' })}>{u.username}</span>
                    <span className={css({ color: 'fg.muted', fontSize: 'xs', overflowWrap: 'anywhere' })}>{u.email}</span>
                  </span>
                  {u.isAdmin && <AdminBadge />}
                </button>
              </li>
            )
          })}
        </ul>
      )}
    </div>
  )
}
