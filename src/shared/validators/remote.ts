// The Remote URL field (spec §5 "Remote URL input") and the remote.playlist input.
import { z } from 'zod'

export const RemotePlaylistSchema = z.strictObject({
  url: z
    .string({ error: 'Please enter a URL' })
    .trim()
    .min(1, 'Please enter a URL')
    .max(2048, 'The URL must be at most 2048 characters')
    .refine((u) => {
      if (!/^https?:\/\//i.test(u)) return false
      try {
        return new URL(u).hostname.length > 0
      } catch {
        return false
      }
    }, 'Please enter a valid URL starting with http:// or https://'),
})
export type RemotePlaylistInput = z.infer<typeof RemotePlaylistSchema>
