// The Remote URL tab and GET /playlist?url= share this input: not blank, and http(s) only.
import { z } from 'zod'

export const REMOTE_URL_REQUIRED = 'Please enter a URL'
export const REMOTE_URL_INVALID = 'Please enter a valid URL starting with http:// or https://'

export const remoteUrlField = z
  .string({ error: (i) => (i.input === undefined || i.input === null ? REMOTE_URL_REQUIRED : 'URL must be text') })
  .trim()
  .min(1, REMOTE_URL_REQUIRED)
  .max(2048, 'URL must be at most 2048 characters')
  .refine((url) => {
    if (!/^https?:\/\//i.test(url)) return false
    try {
      return new URL(url).hostname.length > 0
    } catch {
      return false
    }
  }, REMOTE_URL_INVALID)

export const RemotePlaylistSchema = z.strictObject({ url: remoteUrlField })
