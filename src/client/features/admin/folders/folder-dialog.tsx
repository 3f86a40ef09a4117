// The admin's Add/Edit folder dialog (admin spec §2, §4 "Folder dialogs", §5, §8): Folder Name
// and Folder Path with the shared folder rules, Cancel and Create Folder / Update Folder
// ('Creating...' / 'Updating...'). Closing is blocked while saving; after a save it closes and,
// because the form remounts on every open, the fields start empty next time.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { errorMessage } from '~/client/global-errors'
import { useForm } from '~/client/hooks/use-form'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { Modal, modalFooter } from '~/client/ui/modal'
import { toast } from '~/client/ui/toaster'
import { FolderSchema } from '~/shared/validators/folder'
import { FolderFields } from '~/client/features/folders/folder-fields'
import { css } from 'styled-system/css'

export type AdminFolder = { id: string; label: string; path: string; createdAt: string }

type Props = { open: boolean; onOpenChange: (open: boolean) => void; user: { id: string; username: string }; folder: AdminFolder | null }

export function AdminFolderDialog({ open, onOpenChange, user, folder }: Props) {
  const [busy, setBusy] = useState(false)
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      busy={busy}
      title={folder ? 'Edit Folder' : 'Add Folder'}
      description={folder ? `Change the name or location of this folder of ${user.username}.` : `Add a folder for ${user.username}.`}
    >
      <FolderForm user={user} folder={folder} onBusy={setBusy} onClose={() => onOpenChange(false)} />
    </Modal>
  )
}

function FolderForm({
  user,
  folder,
  onBusy,
  onClose,
}: {
  user: Props['user']
  folder: AdminFolder | null
  onBusy: (busy: boolean) => void
  onClose: () => void
}) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const form = useForm(FolderSchema, { label: folder?.label ?? '', path: folder?.path ?? '' })
  const [serverError, setServerError] = useState<string | null>(null)
  const options = {
    onMutate: () => onBusy(true),
    onSettled: () => onBusy(false),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: trpc.admin.folders.list.queryKey({ userId: user.id }) })
      toast(
        folder
          ? { title: 'Folder updated', description: `The folder of ${user.username} has been updated.`, type: 'success' }
          : { title: 'Folder created', description: `The folder has been added for ${user.username}.`, type: 'success' },
      )
      onClose()
    },
    onError: (error: unknown) => {
      const message = errorMessage(error, folder ? 'Failed to update folder' : 'Failed to add folder to user')
      setServerError(message)
      toast({ title: folder ? 'Failed to update folder' : 'Failed to create folder', description: message, type: 'error' })
    },
  }
  const create = useMutation(trpc.admin.folders.create.mutationOptions(options))
  const update = useMutation(trpc.admin.folders.update.mutationOptions(options))
  const pending = create.isPending || update.isPending

  return (
    <form
      noValidate
      className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}
      onSubmit={(e) => {
        e.preventDefault()
        setServerError(null)
        if (!form.isValid) return form.touchAll()
        const values = form.parsed()
        if (folder) update.mutate({ userId: user.id, folderId: folder.id, ...values })
        else create.mutate({ userId: user.id, ...values })
      }}
    >
      <FolderFields form={form} pathLabel="Folder Path" serverError={serverError} onPathEdit={() => setServerError(null)} disabled={pending} />
      <div className={modalFooter}>
        <Button variant="outline" onClick={onClose} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {folder ? (update.isPending ? 'Updating...' : 'Update Folder') : create.isPending ? 'Creating...' : 'Create Folder'}
        </Button>
      </div>
    </form>
  )
}
