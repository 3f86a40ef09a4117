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
import { TextField } from '~/client/ui/text-field'
import { toast } from '~/client/ui/toaster'
import { FolderSchema } from '~/shared/validators/folder'
import { css } from 'styled-system/css'

export type AdminFolder = { id: string; label: string; path: string; createdAt: string }

type Props = { open: boolean; onOpenChange: (open: boolean) => void; user: { id: string; username: string }; folder: AdminFolder | null }

export const FOLDER_PATH_HINT = 'A local path (for example /music/collection) or a remote URL (for example https://example.com/music/)'

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

function FolderForm({ user, folder, onBusy, onClose }: { user: Props['user']; folder: AdminFolder | null; onBusy: (busy: boolean) => void; onClose: () => void }) {
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
      <TextField label="Folder Name" name="label" placeholder="My Collection" autoComplete="off" disabled={pending} value={form.values.label} onValueChange={(v) => form.set('label', v)} onBlur={() => form.touch('label')} error={form.error('label')} />
      <TextField
        label="Folder Path"
        name="path"
        placeholder="/music/collection"
        autoComplete="off"
        spellCheck={false}
        disabled={pending}
        value={form.values.path}
        onValueChange={(v) => {
          setServerError(null)
          form.set('path', v)
        }}
        onBlur={() => form.touch('path')}
        error={form.error('path') ?? serverError ?? undefined}
        hint={FOLDER_PATH_HINT}
      />
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
