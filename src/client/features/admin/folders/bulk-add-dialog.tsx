// 'Bulk Add Folders': one folder (Folder Label, Folder Path) added to
// every checked user; Select All and Clear; 'Add to N users' ('Adding...'). Missing fields or no
// user → 'Please fill in all fields and select at least one user.'; the result toast counts successes and failures.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { errorMessage } from '~/client/global-errors'
import { useForm } from '~/client/hooks/use-form'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { Modal, modalFooter } from '~/client/ui/modal'
import { TextField } from '~/client/ui/text-field'
import { toast } from '~/client/ui/toaster'
import { plural } from '~/shared/plural'
import { FolderSchema } from '~/shared/validators/folder'
import { css } from 'styled-system/css'
import { AdminBadge } from '../users/parts'
import { FOLDER_PATH_HINT } from '~/client/features/folders/folder-fields'
import { stack } from 'styled-system/patterns'

type User = { id: string; username: string; email: string; isAdmin: boolean }
type Props = { open: boolean; onOpenChange: (open: boolean) => void; users: User[] }

export function BulkAddDialog({ open, onOpenChange, users }: Props) {
  const [busy, setBusy] = useState(false)
  return (
    <Modal open={open} onOpenChange={onOpenChange} busy={busy} title="Bulk Add Folders" description="Add the same folder to several users at once.">
      <BulkForm users={users} onBusy={setBusy} onClose={() => onOpenChange(false)} />
    </Modal>
  )
}

function BulkForm({ users, onBusy, onClose }: { users: User[]; onBusy: (busy: boolean) => void; onClose: () => void }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const form = useForm(FolderSchema, { label: '', path: '' })
  const [selected, setSelected] = useState<Set<string>>(new Set())
  const bulk = useMutation(
    trpc.admin.folders.bulkAdd.mutationOptions({
      onMutate: () => onBusy(true),
      onSettled: () => onBusy(false),
      onSuccess: ({ successful, failed }) => {
        void queryClient.invalidateQueries(trpc.admin.folders.list.pathFilter())
        const description = `Successfully added to ${plural(successful.length, 'user')}.${failed.length ? ` Failed for ${plural(failed.length, 'user')}.` : ''}`
        toast({ title: 'Bulk Add Complete', description, type: failed.length ? 'warning' : 'success', duration: failed.length ? 8000 : undefined })
        onClose()
      },
      onError: (error) => toast({ title: 'Failed to bulk add folders', description: errorMessage(error, 'An unexpected error occurred'), type: 'error' }),
    }),
  )

  const toggle = (id: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s)
      if (on) next.add(id)
      else next.delete(id)
      return next
    })

  return (
    <form
      noValidate
      className={stack({ gap: '4' })}
      onSubmit={(e) => {
        e.preventDefault()
        if (!form.values.label.trim() || !form.values.path.trim() || selected.size === 0) {
          form.touchAll()
          return void toast({ title: 'Missing information', description: 'Please fill in all fields and select at least one user.', type: 'error' })
        }
        if (!form.isValid) return form.touchAll()
        bulk.mutate({ ...form.parsed(), userIds: [...selected] })
      }}
    >
      <TextField
        label="Folder Label"
        name="label"
        placeholder="Shared Collection"
        autoComplete="off"
        disabled={bulk.isPending}
        value={form.values.label}
        onValueChange={(v) => form.set('label', v)}
        onBlur={() => form.touch('label')}
        error={form.error('label')}
      />
      <TextField
        label="Folder Path"
        name="path"
        placeholder="/music/collection"
        autoComplete="off"
        spellCheck={false}
        disabled={bulk.isPending}
        value={form.values.path}
        onValueChange={(v) => form.set('path', v)}
        onBlur={() => form.touch('path')}
        error={form.error('path')}
        hint={FOLDER_PATH_HINT}
      />
      <fieldset className={css({ display: 'flex', flexDirection: 'column', gap: '2', minW: '0' })} disabled={bulk.isPending}>
        <legend className={css({ fontSize: 'sm', fontWeight: 'medium', mb: '1' })}>
          Users{' '}
          <span className={css({ color: 'fg.muted', fontWeight: 'normal' })}>
            ({selected.size} of {users.length} selected)
          </span>
        </legend>
        <div className={css({ display: 'flex', gap: '2' })}>
          <Button variant="outline" size="sm" onClick={() => setSelected(new Set(users.map((u) => u.id)))}>
            Select All
          </Button>
          <Button variant="outline" size="sm" onClick={() => setSelected(new Set())}>
            Clear
          </Button>
        </div>
        <ul className={css({ maxH: '56', overflowY: 'auto', borderWidth: '1px', borderColor: 'border.default', borderRadius: 'lg', bg: 'bg.subtle', py: '1' })}>
          {users.length === 0 && <li className={css({ px: '3', py: '2', fontSize: 'sm', color: 'fg.muted' })}>No users found</li>}
          {users.map((u) => (
            <li key={u.id}>
              <label
                className={css({
                  display: 'flex',
                  alignItems: 'center',
                  gap: '3',
                  px: '3',
                  py: '2',
                  cursor: 'pointer',
                  fontSize: 'sm',
                  _hover: { bg: 'bg.muted' },
                })}
              >
                <input
                  type="checkbox"
                  checked={selected.has(u.id)}
                  onChange={(e) => toggle(u.id, e.target.checked)}
                  className={css({ w: '4', h: '4', accentColor: 'accent.default', flexShrink: 0 })}
                />
                <span className={css({ display: 'flex', flexDirection: 'column', minW: '0', flex: '1' })}>
                  <span className={css({ fontWeight: 'medium', overflowWrap: 'anywhere' })}>{u.username}</span>
                  <span className={css({ color: 'fg.muted', fontSize: 'xs', overflowWrap: 'anywhere' })}>{u.email}</span>
                </span>
                {u.isAdmin && <AdminBadge />}
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <div className={modalFooter}>
        <Button variant="outline" onClick={onClose} disabled={bulk.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={bulk.isPending}>
          {bulk.isPending ? 'Adding...' : `Add to ${plural(selected.size, 'user')}`}
        </Button>
      </div>
    </form>
  )
}
