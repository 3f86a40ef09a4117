// The folder dialog (members' and admins'). Of the path rules' two readings the stricter wins: a path is either an
// http(s) URL or an absolute-looking library path starting with '/'.
import { z } from 'zod'
import { requiredText } from './fields'

// Control characters (NUL, newlines, escapes…) never belong in a name, a path or a URL; the URL
// parser would silently drop tabs and newlines, so what is stored would not be what is fetched.
const CONTROL = /\p{Cc}/u

export const OTHER_SCHEME_MESSAGE = 'Path must be a URL or absolute path: only http:// and https:// URLs are supported'

export const folderPathField = requiredText('Folder path is required', 'Folder path')
  .max(2048, 'Folder path must be at most 2048 characters')
  .superRefine((path, ctx) => {
    if (/^http/i.test(path)) {
      let ok = false
      if (CONTROL.test(path)) return void ctx.addIssue({ code: 'custom', message: 'Please enter a valid URL' })
      try {
        const url = new URL(path)
        ok = (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0
      } catch {}
      if (!ok) ctx.addIssue({ code: 'custom', message: 'Please enter a valid URL' })
      return
    }
    // Another scheme (ftp://, smb://, file://) is a URL we cannot read: the message for a
    // path that is neither http nor absolute, then which URLs we can read.
    if (/^[a-z][a-z\d+.-]*:\/\//i.test(path)) {
      ctx.addIssue({ code: 'custom', message: OTHER_SCHEME_MESSAGE })
      return
    }
    if (path.includes('..') || path.includes('<') || path.includes('>') || CONTROL.test(path)) {
      ctx.addIssue({ code: 'custom', message: 'Invalid path format' })
      return
    }
    if (!path.startsWith('/')) ctx.addIssue({ code: 'custom', message: 'Path must be a URL or absolute path' })
  })

export const FolderSchema = z.strictObject({
  label: requiredText('Folder name is required', 'Folder name')
    .max(100, 'Folder name must be at most 100 characters')
    .refine((label) => !CONTROL.test(label), 'Folder name must not contain control characters'),
  path: folderPathField,
})
export type FolderInput = z.infer<typeof FolderSchema>

export const isRemotePath = (path: string) => /^http/i.test(path)

export const MAX_FOLDERS_PER_USER = 500

const folderId = z.string({ error: 'Folder id is required' }).trim().min(1, 'Folder id is required').max(64, 'Folder id is too long')

export const FolderIdSchema = z.strictObject({ id: folderId })
export const FolderUpdateSchema = FolderSchema.extend({ id: folderId })
export const FolderReorderSchema = z.strictObject({
  folderIds: z
    .array(folderId, { error: 'folderIds must be a list of folder ids' })
    .max(MAX_FOLDERS_PER_USER, `folderIds may list at most ${MAX_FOLDERS_PER_USER} folders`),
})
