// The two fields of every folder dialog (members', admin's): the name and the path, with the
// shared folder rules' messages after touch and a server error under the path field.
// The path label differs by screen: "Path or URL" for members, "Folder Path" for the admin.
import type { FocusEvent } from 'react'
import { TextField } from '~/client/ui/text-field'

export const FOLDER_PATH_HINT = 'A local path (for example /music/collection) or a remote URL (for example https://example.com/music/)'

type FolderForm = {
  values: { label: string; path: string }
  set: (field: 'label' | 'path', value: string) => void
  touch: (field: 'label' | 'path') => void
  error: (field: 'label' | 'path') => string | undefined
}

/** Marks a control that focus may move to without judging the field it left ("Browse the library"). */
export const KEEPS_FIELDS_QUIET = { 'data-keeps-fields-quiet': '' }

/** A field is judged when it is left, unless focus went to a control that helps fill it in. */
const leftFor = (e: FocusEvent) => !(e.relatedTarget instanceof Element && e.relatedTarget.closest('[data-keeps-fields-quiet]'))

export function FolderFields(p: { form: FolderForm; pathLabel: string; serverError: string | null; onPathEdit: () => void; disabled?: boolean }) {
  return (
    <>
      <TextField
        label="Folder Name"
        name="label"
        placeholder="My Collection"
        autoComplete="off"
        disabled={p.disabled}
        value={p.form.values.label}
        onValueChange={(v) => p.form.set('label', v)}
        onBlur={(e) => leftFor(e) && p.form.touch('label')}
        error={p.form.error('label')}
      />
      <TextField
        label={p.pathLabel}
        name="path"
        placeholder="/music/collection"
        autoComplete="off"
        spellCheck={false}
        disabled={p.disabled}
        value={p.form.values.path}
        onValueChange={(v) => {
          p.onPathEdit()
          p.form.set('path', v)
        }}
        onBlur={(e) => leftFor(e) && p.form.touch('path')}
        error={p.form.error('path') ?? p.serverError ?? undefined}
        hint={FOLDER_PATH_HINT}
      />
    </>
  )
}
