// The add/edit folder dialog of both screens: the member's /folders and the admin's
// /admin/folders. Folder Name and a path field with the shared folder rules, Cancel and the
// submit button with its busy text. The fields reset on open (the form remounts); closing is blocked while saving; a failed
// save shows its message under the path field and as a toast. What differs by screen (texts, the
// call that saves, "Browse the library", how strict the form is) comes in as props.
import { useMutation } from '@tanstack/react-query'
import { useState } from 'react'
import { useForm } from '~/client/hooks/use-form'
import { Button } from '~/client/ui/button'
import { Modal, modalFooter } from '~/client/ui/modal'
import { toast } from '~/client/ui/toaster'
import { FolderSchema } from '~/shared/validators/folder'
import { FolderFields, KEEPS_FIELDS_QUIET } from './folder-fields'
import { LibraryFolderPicker } from './library-folder-picker'
import { stack } from 'styled-system/patterns'

export type FolderValues = { label: string; path: string }

export type FolderDialogProps = {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** The folder being edited, or null to add one. */
  folder: FolderValues | null
  title: string
  description: string
  pathLabel: string
  submitLabel: string
  busyLabel: string
  /** Creates or updates the folder. */
  save: (values: FolderValues) => Promise<unknown>
  /** After a save, before the dialog closes: refresh the list and say so. */
  onSaved: () => void
  /** A failed save's toast title and message, or null when it was dealt with elsewhere (an expired sign-in). */
  failure: (error: unknown) => { title: string; message: string } | null
  /** "Browse the library": pick the path from the library's folder tree (members). */
  browse?: boolean
  /** The fields are locked while saving (admin). */
  lockFieldsWhileSaving?: boolean
  /** The submit button waits for valid fields (members); otherwise submitting shows what is wrong. */
  submitOnlyWhenValid?: boolean
}

export function FolderDialog({ open, onOpenChange, title, description, ...form }: FolderDialogProps) {
  const [busy, setBusy] = useState(false)
  return (
    <Modal open={open} onOpenChange={onOpenChange} busy={busy} title={title} description={description}>
      <FolderForm {...form} onBusy={setBusy} onClose={() => onOpenChange(false)} />
    </Modal>
  )
}

type FormProps = Omit<FolderDialogProps, 'open' | 'onOpenChange' | 'title' | 'description'> & { onBusy: (busy: boolean) => void; onClose: () => void }

function FolderForm(p: FormProps) {
  const form = useForm(FolderSchema, { label: p.folder?.label ?? '', path: p.folder?.path ?? '' })
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
  const saving = useMutation({
    mutationFn: p.save,
    onMutate: () => p.onBusy(true),
    onSettled: () => p.onBusy(false),
    onSuccess: () => {
      p.onSaved()
      p.onClose()
    },
    onError: (error: unknown) => {
      const failed = p.failure(error)
      if (!failed) return
      setServerError(failed.message)
      // Under the path field and as a toast, whatever the failure; the global handler has
      // already raised the rate-limit banner when that was the cause.
      toast({ title: failed.title, description: failed.message, type: 'error' })
    },
  })
  const pending = saving.isPending

  return (
    <form
      noValidate
      className={stack({ gap: '4' })}
      onSubmit={(e) => {
        e.preventDefault()
        setServerError(null)
        if (!form.isValid) return form.touchAll()
        saving.mutate(form.parsed())
      }}
    >
      <FolderFields
        form={form}
        pathLabel={p.pathLabel}
        serverError={serverError}
        onPathEdit={() => setServerError(null)}
        disabled={p.lockFieldsWhileSaving ? pending : undefined}
      />
      {p.browse && (
        <div>
          <Button variant="outline" size="sm" aria-expanded={browsing} onClick={() => setBrowsing((b) => !b)} {...KEEPS_FIELDS_QUIET}>
            {browsing ? 'Hide the library' : 'Browse the library'}
          </Button>
        </div>
      )}
      {browsing && <LibraryFolderPicker start={form.values.path} onPick={pick} />}
      <div className={modalFooter}>
        <Button variant="outline" onClick={p.onClose} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={(p.submitOnlyWhenValid && !form.isValid) || pending}>
          {pending ? p.busyLabel : p.submitLabel}
        </Button>
      </div>
    </form>
  )
}
