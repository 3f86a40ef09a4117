// One user's folders on /admin/folders: 'Folders (n)', Add Folder and Refresh, the empty text,
// and a card per folder (globe for remote URLs, label, created date, path, Play / Edit / Delete).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { errorMessage } from '~/client/global-errors'
import { useTRPC, useTRPCClient } from '~/client/trpc'
import { ConfirmDialog } from '~/client/ui/confirm-dialog'
import { Button } from '~/client/ui/button'
import { CenteredSpinner } from '~/client/ui/spinner'
import { toast } from '~/client/ui/toaster'
import { isRemotePath } from '~/shared/validators/folder'
import { css, cx } from 'styled-system/css'
import { ErrorPanel, formatDate, panel, RefreshIcon } from '../users/parts'
import { FolderDialog } from '~/client/features/folders/folder-dialog'
import { stack } from 'styled-system/patterns'

type AdminFolder = { id: string; label: string; path: string; createdAt: string }

type Props = { user: { id: string; username: string; email?: string }; refreshKey: number }

export function UserFolders({ user, refreshKey }: Props) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const list = useQuery({ ...trpc.admin.folders.list.queryOptions({ userId: user.id }), retry: false })
  const [dialog, setDialog] = useState<{ open: boolean; folder: AdminFolder | null }>({ open: false, folder: null })
  const [deleting, setDeleting] = useState<AdminFolder | null>(null)
  const client = useTRPCClient()
  const editing = dialog.folder
  const { refetch } = list

  useEffect(() => {
    if (refreshKey > 0) void refetch()
  }, [refreshKey, refetch])

  useEffect(() => {
    if (list.error) toast({ title: 'Failed to load user folders', description: errorMessage(list.error, 'Failed to fetch user folders'), type: 'error' })
  }, [list.error])

  const remove = useMutation(
    trpc.admin.folders.delete.mutationOptions({
      onSuccess: () => {
        setDeleting(null)
        void queryClient.invalidateQueries({ queryKey: trpc.admin.folders.list.queryKey({ userId: user.id }) })
        toast({ title: 'Folder deleted', description: `The folder has been removed from ${user.username}.`, type: 'success' })
      },
      onError: (error) => {
        setDeleting(null)
        toast({ title: 'Failed to delete folder', description: errorMessage(error, 'Failed to remove folder from user'), type: 'error' })
      },
    }),
  )

  const folders = list.data ?? []
  return (
    <section className={cx(panel, stack({ gap: '4' }))} aria-labelledby="user-folders-title">
      <div className={css({ display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: '3', flexWrap: 'wrap' })}>
        <div className={css({ minW: '0' })}>
          <h3 id="user-folders-title" className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>
            Folders ({list.isSuccess ? folders.length : '…'})
          </h3>
          <p className={css({ color: 'fg.muted', fontSize: 'sm', overflowWrap: 'anywhere' })}>
            {user.username}
            {user.email ? ` · ${user.email}` : ''}
          </p>
        </div>
        <div className={css({ display: 'flex', gap: '2' })}>
          <Button size="sm" onClick={() => setDialog({ open: true, folder: null })} disabled={!list.isSuccess}>
            <span aria-hidden="true">+</span> Add Folder
          </Button>
          <Button variant="outline" size="sm" aria-label="Refresh folders" onClick={() => void list.refetch()} disabled={list.isFetching}>
            <RefreshIcon /> Refresh
          </Button>
        </div>
      </div>

      {list.isPending ? (
        <CenteredSpinner label="Loading folders" />
      ) : list.isError ? (
        <ErrorPanel message={errorMessage(list.error, 'Failed to fetch user folders')} onRetry={() => void list.refetch()} />
      ) : folders.length === 0 ? (
        <p
          className={css({
            color: 'fg.muted',
            textAlign: 'center',
            py: '10',
            borderWidth: '2px',
            borderStyle: 'dashed',
            borderColor: 'border.default',
            borderRadius: 'xl',
          })}
        >
          This user has no folders.
        </p>
      ) : (
        <ul className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', lg: 'repeat(2, minmax(0, 1fr))' }, gap: '3' })}>
          {folders.map((folder) => (
            <FolderCard
              key={folder.id}
              folder={folder}
              onPlay={() => toast({ title: 'Admin folder preview not yet implemented', type: 'info' })}
              onEdit={() => setDialog({ open: true, folder })}
              onDelete={() => setDeleting(folder)}
            />
          ))}
        </ul>
      )}

      <FolderDialog
        open={dialog.open}
        onOpenChange={(open) => setDialog((d) => ({ ...d, open }))}
        folder={editing}
        title={editing ? 'Edit Folder' : 'Add Folder'}
        description={editing ? `Change the name or location of this folder of ${user.username}.` : `Add a folder for ${user.username}.`}
        pathLabel="Folder Path"
        submitLabel={editing ? 'Update Folder' : 'Create Folder'}
        busyLabel={editing ? 'Updating...' : 'Creating...'}
        save={(values) =>
          editing
            ? client.admin.folders.update.mutate({ userId: user.id, folderId: editing.id, ...values })
            : client.admin.folders.create.mutate({ userId: user.id, ...values })
        }
        onSaved={() => {
          void queryClient.invalidateQueries({ queryKey: trpc.admin.folders.list.queryKey({ userId: user.id }) })
          toast(
            editing
              ? { title: 'Folder updated', description: `The folder of ${user.username} has been updated.`, type: 'success' }
              : { title: 'Folder created', description: `The folder has been added for ${user.username}.`, type: 'success' },
          )
        }}
        failure={(error) => ({
          title: editing ? 'Failed to update folder' : 'Failed to create folder',
          message: errorMessage(error, editing ? 'Failed to update folder' : 'Failed to add folder to user'),
        })}
        lockFieldsWhileSaving
      />
      <ConfirmDialog
        open={deleting !== null}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate({ userId: user.id, folderId: deleting.id })}
        busy={remove.isPending}
        title="Delete Folder"
        description={deleting ? `Are you sure you want to delete the folder "${deleting.label}"? This action cannot be undone.` : undefined}
      >
        {deleting && <p className={css({ fontSize: 'sm', color: 'fg.muted', fontFamily: 'mono', overflowWrap: 'anywhere' })}>{deleting.path}</p>}
      </ConfirmDialog>
    </section>
  )
}

function FolderCard({ folder, onPlay, onEdit, onDelete }: { folder: AdminFolder; onPlay: () => void; onEdit: () => void; onDelete: () => void }) {
  const remote = isRemotePath(folder.path)
  return (
    <li
      data-folder-id={folder.id}
      aria-label={folder.label}
      className={css({
        display: 'flex',
        flexDirection: 'column',
        gap: '3',
        p: '4',
        minW: '0',
        bg: 'bg.subtle',
        borderWidth: '1px',
        borderColor: 'border.default',
        borderRadius: 'xl',
      })}
    >
      <div className={css({ display: 'flex', gap: '3', alignItems: 'flex-start', minW: '0' })}>
        <span
          title={remote ? 'Remote folder' : 'Local folder'}
          className={css({
            flexShrink: 0,
            w: '9',
            h: '9',
            display: 'inline-flex',
            alignItems: 'center',
            justifyContent: 'center',
            borderRadius: 'lg',
            bg: remote ? 'accent.muted' : 'success.muted',
            color: remote ? 'accent.default' : 'success.fg',
          })}
        >
          {remote ? <GlobeIcon /> : <FolderIcon />}
          <span className={css({ srOnly: true })}>{remote ? 'Remote' : 'Local'}</span>
        </span>
        <div className={css({ minW: '0', flex: '1' })}>
          <h4 className={css({ fontWeight: 'semibold', overflowWrap: 'anywhere' })}>{folder.label}</h4>
          <p className={css({ fontSize: 'xs', color: 'fg.subtle' })}>Created {formatDate(folder.createdAt)}</p>
        </div>
      </div>
      <p
        title={folder.path}
        className={css({ fontFamily: 'mono', fontSize: 'xs', color: 'fg.muted', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' })}
      >
        {folder.path}
      </p>
      <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
        <Button size="sm" aria-label={`Play ${folder.label}`} onClick={onPlay}>
          <span aria-hidden="true">▶</span> Play
        </Button>
        <Button variant="outline" size="sm" aria-label={`Edit ${folder.label}`} onClick={onEdit}>
          Edit
        </Button>
        <Button variant="ghost" size="sm" aria-label={`Delete ${folder.label}`} className={css({ color: 'danger.fg' })} onClick={onDelete}>
          Delete
        </Button>
      </div>
    </li>
  )
}

function GlobeIcon() {
  return (
    <svg aria-hidden="true" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8">
      <circle cx="12" cy="12" r="9" />
      <path d="M3 12h18M12 3c2.5 2.7 3.8 5.7 3.8 9s-1.3 6.3-3.8 9c-2.5-2.7-3.8-5.7-3.8-9S9.5 5.7 12 3z" />
    </svg>
  )
}

function FolderIcon() {
  return (
    <svg aria-hidden="true" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round">
      <path d="M3 6.5A1.5 1.5 0 0 1 4.5 5h4.3l2 2.2h8.7A1.5 1.5 0 0 1 21 8.7v9.8a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 18.5z" />
    </svg>
  )
}
