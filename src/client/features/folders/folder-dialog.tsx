// The add/edit folder dialog (spec §2 "/folders", §8 "Folders"): "Folder Name" and "Path or URL",
// fields reset on open (the form remounts), busy texts, server errors under the path field and
// as a toast. "Browse the library" opens the library's folder tree to pick the path from.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { folderErrorMessage } from './folder-errors'
import { useForm } from '~/client/hooks/use-form'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { Modal, modalFooter } from '~/client/ui/modal'
import { toast } from '~/client/ui/toaster'
import { FolderSchema } from '~/shared/validators'
import { css } from 'styled-system/css'
import { FolderFields, KEEPS_FIELDS_QUIET } from './folder-fields'
import { LibraryFolderPicker } from './library-folder-picker'
import type { Folder } from './types'
import { useFolderAuthError } from './use-folder-auth-error'

type Props = { open: boolean; onOpenChange: (open: boolean) => void; folder: Folder | null }

export function FolderDialog({ open, onOpenChange, folder }: Props) {
  const [busy, setBusy] = useState(false)
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      busy={busy}
      title={folder ? 'Edit Folder' : 'Add New Folder'}
      description={folder ? 'Change the name or location of this folder.' : 'Add a folder from the music library or a remote URL.'}
    >
      <FolderForm folder={folder} onBusy={setBusy} onDone={() => onOpenChange(false)} onCancel={() => onOpenChange(false)} />
    </Modal>
  )
}

function FolderForm({ folder, onBusy, onDone, onCancel }: { folder: Folder | null; onBusy: (b: boolean) => void; onDone: () => void; onCancel: () => void }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const handleAuthError = useFolderAuthError()
  const form = useForm(FolderSchema, { label: folder?.label ?? '', path: folder?.path ?? '' })
  const [serverError, setServerError] = useState<string | null>(null)
  const [browsing, setBrowsing] = useState(false)
  const pick = (path: string) => {
    setServerError(null)
    form.set('path', path)
    form.touch('path')
    // An empty name takes the folder's own.
    if (!form.values.label.trim()) form.set('label', path.split('/').filter(Boolean).at(-1) ?? 'Library')
    setBrowsing(false)
  }
  const options = {
    onMutate: () => onBusy(true),
    onSettled: () => onBusy(false),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: trpc.folders.list.queryKey() })
      toast(
        folder
          ? { title: 'Folder updated', description: 'Your folder has been updated successfully', type: 'success' }
          : { title: 'Folder created', description: 'Your folder has been created successfully', type: 'success' },
      )
      onDone()
    },
    onError: (error: unknown) => {
      if (handleAuthError(error)) return
      const message = folderErrorMessage(folder ? 'update' : 'add', error)
      setServerError(message)
      // Under the path field and as a toast (§8), whatever the failure; the global handler has
      // already raised the rate-limit banner when that was the cause.
      toast({ title: 'Failed to save folder', description: message, type: 'error' })
    },
  }
  const create = useMutation(trpc.folders.create.mutationOptions(options))
  const update = useMutation(trpc.folders.update.mutationOptions(options))
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
        if (folder) update.mutate({ id: folder.id, ...values })
        else create.mutate(values)
      }}
    >
      <FolderFields form={form} pathLabel="Path or URL" serverError={serverError} onPathEdit={() => setServerError(null)} />
      <div>
        <Button variant="outline" size="sm" aria-expanded={browsing} onClick={() => setBrowsing((b) => !b)} {...KEEPS_FIELDS_QUIET}>
          {browsing ? 'Hide the library' : 'Browse the library'}
        </Button>
      </div>
      {browsing && <LibraryFolderPicker start={form.values.path} onPick={pick} />}
      <div className={modalFooter}>
        <Button variant="outline" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={!form.isValid || pending}>
          {folder ? (update.isPending ? 'Updating...' : 'Update Folder') : create.isPending ? 'Adding...' : 'Add Folder'}
        </Button>
      </div>
    </form>
  )
}
