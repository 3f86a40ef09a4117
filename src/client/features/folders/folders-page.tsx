// /folders: the member's folders with
// add / edit / delete / reorder / play, and the loading, error, empty and expired-token states.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { errorMessage } from '~/client/global-errors'
import { folderErrorMessage } from './folder-errors'
import { useTRPC, useTRPCClient } from '~/client/trpc'
import { ConfirmDialog } from '~/client/ui/confirm-dialog'
import { Button } from '~/client/ui/button'
import { CenteredSpinner, Spinner } from '~/client/ui/spinner'
import { toast } from '~/client/ui/toaster'
import { css } from 'styled-system/css'
import { FolderDialog } from './folder-dialog'
import { FolderGrid } from './folder-grid'
import type { Folder } from './types'
import { isAuthExpiredError, useFolderAuthError, useRedirectingToLogin } from './use-folder-auth-error'
import { useOrderSaver } from './use-order-saver'
import { stack } from 'styled-system/patterns'

export function FoldersPage() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const handleAuthError = useFolderAuthError()
  const redirecting = useRedirectingToLogin()
  const list = useQuery({ ...trpc.folders.list.queryOptions(), retry: false })
  const { schedule, saving } = useOrderSaver()
  const [dialog, setDialog] = useState<{ open: boolean; folder: Folder | null }>({ open: false, folder: null })
  const [deleting, setDeleting] = useState<Folder | null>(null)
  const client = useTRPCClient()
  const editing = dialog.folder

  useEffect(() => {
    if (list.error) handleAuthError(list.error)
  }, [list.error, handleAuthError])

  const remove = useMutation(
    trpc.folders.delete.mutationOptions({
      onSuccess: () => {
        setDeleting(null)
        void queryClient.invalidateQueries({ queryKey: trpc.folders.list.queryKey() })
        toast({ title: 'Folder deleted', description: 'Your folder has been deleted successfully', type: 'success' })
      },
      onError: (error) => {
        setDeleting(null)
        if (handleAuthError(error)) return
        toast({ title: 'Failed to delete folder', description: errorMessage(error, 'An unexpected error occurred'), type: 'error' })
      },
    }),
  )

  const openAdd = () => setDialog({ open: true, folder: null })
  const folders = list.data ?? []

  return (
    <section className={stack({ gap: '6' })}>
      <header
        className={css({
          display: 'flex',
          alignItems: { base: 'flex-start', sm: 'center' },
          justifyContent: 'space-between',
          gap: '4',
          flexDirection: { base: 'column', sm: 'row' },
        })}
      >
        <div>
          <h1 className={css({ fontSize: { base: '2xl', md: '3xl' }, fontWeight: 'bold' })}>My Folders</h1>
          <p className={css({ color: 'fg.muted', fontSize: 'sm', mt: '1' })}>Your music library folders and remote URLs, in the order you like.</p>
        </div>
        <div className={css({ display: 'flex', alignItems: 'center', gap: '3' })}>
          {saving && (
            <span role="status" className={css({ display: 'inline-flex', alignItems: 'center', gap: '2', fontSize: 'sm', color: 'fg.muted' })}>
              <span className={css({ w: '2', h: '2', borderRadius: 'full', bg: 'accent.default', animation: 'pulse 1s infinite' })} aria-hidden="true" />
              Saving folder order...
            </span>
          )}
          <Button onClick={openAdd} disabled={redirecting}>
            <span aria-hidden="true">+</span> Add Folder
          </Button>
        </div>
      </header>

      {redirecting ? (
        <div role="status" className={css({ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '3', py: '16', color: 'fg.muted' })}>
          <Spinner label="Redirecting" />
          <p>Redirecting to login page...</p>
        </div>
      ) : list.isPending ? (
        <CenteredSpinner label="Loading folders" />
      ) : list.isError ? (
        <div
          role="alert"
          className={css({
            textAlign: 'center',
            py: '12',
            px: '4',
            bg: 'danger.muted',
            borderRadius: '2xl',
            borderWidth: '1px',
            borderColor: 'danger.default',
          })}
        >
          <p className={css({ fontWeight: 'semibold' })}>{folderErrorMessage('fetch', list.error)}</p>
          {!isAuthExpiredError(list.error) && (
            <Button variant="outline" className={css({ mt: '4' })} onClick={() => void list.refetch()}>
              Retry
            </Button>
          )}
        </div>
      ) : folders.length === 0 ? (
        <div
          className={css({
            textAlign: 'center',
            py: '16',
            px: '4',
            borderWidth: '2px',
            borderStyle: 'dashed',
            borderColor: 'border.default',
            borderRadius: '2xl',
          })}
        >
          {/* An SVG, not the 📁 emoji: machines without an emoji font showed an empty box. */}
          <svg
            aria-hidden="true"
            width="48"
            height="48"
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.5"
            strokeLinejoin="round"
            className={css({ mx: 'auto', color: 'accent.default' })}
          >
            <path d="M3 6.5A1.5 1.5 0 0 1 4.5 5h4.3l2 2.2h8.7A1.5 1.5 0 0 1 21 8.7v9.8a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 18.5z" />
          </svg>
          <h2 className={css({ fontSize: 'xl', fontWeight: 'bold', mt: '2' })}>No folders yet</h2>
          <p className={css({ color: 'fg.muted', mt: '1' })}>Add your first folder to get started.</p>
          <Button className={css({ mt: '5' })} onClick={openAdd}>
            <span aria-hidden="true">+</span> Add Folder
          </Button>
        </div>
      ) : (
        <FolderGrid
          folders={folders}
          onReorder={schedule}
          saving={saving}
          onAdd={openAdd}
          onEdit={(folder) => setDialog({ open: true, folder })}
          onDelete={setDeleting}
        />
      )}

      <FolderDialog
        open={dialog.open}
        onOpenChange={(open) => setDialog((d) => ({ ...d, open }))}
        folder={editing}
        title={editing ? 'Edit Folder' : 'Add New Folder'}
        description={editing ? 'Change the name or location of this folder.' : 'Add a folder from the music library or a remote URL.'}
        pathLabel="Path or URL"
        submitLabel={editing ? 'Update Folder' : 'Add Folder'}
        busyLabel={editing ? 'Updating...' : 'Adding...'}
        save={(values) => (editing ? client.folders.update.mutate({ id: editing.id, ...values }) : client.folders.create.mutate(values))}
        onSaved={() => {
          void queryClient.invalidateQueries({ queryKey: trpc.folders.list.queryKey() })
          toast(
            editing
              ? { title: 'Folder updated', description: 'Your folder has been updated successfully', type: 'success' }
              : { title: 'Folder created', description: 'Your folder has been created successfully', type: 'success' },
          )
        }}
        failure={(error) =>
          handleAuthError(error) ? null : { title: 'Failed to save folder', message: folderErrorMessage(editing ? 'update' : 'add', error) }
        }
        browse
        submitOnlyWhenValid
      />
      <ConfirmDialog
        open={deleting !== null}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate({ id: deleting.id })}
        busy={remove.isPending}
        title="Delete Folder"
        description="Are you sure you want to delete this folder?"
      >
        {deleting && (
          <p className={css({ fontSize: 'sm', color: 'fg.muted', overflowWrap: 'anywhere' })}>
            {deleting.label} — {deleting.path}
          </p>
        )}
      </ConfirmDialog>
    </section>
  )
}
