// The Remote URL tab: members load a folder URL as a playlist; visitors
// see it locked. The server reads the listing or playlist (remote.playlist, GET /playlist?url=).
import { Link } from '@tanstack/react-router'
import { useCallback, useState } from 'react'
import { css } from 'styled-system/css'
import { useAuth } from '~/client/features/auth/auth-store'
import { reportGlobalError } from '~/client/global-errors'
import { useForm } from '~/client/hooks/use-form'
import { useTRPCClient } from '~/client/trpc'
import { Button, button } from '~/client/ui/button'
import { TextField } from '~/client/ui/text-field'
import { toast } from '~/client/ui/toaster'
import { folderNameFromUrl } from '~/shared/player/file-name'
import { toTracks } from '~/shared/player/server-tracks'
import type { Track } from '~/shared/player/track'
import { RemotePlaylistSchema } from '~/shared/validators'
import { TRPCClientError } from '@trpc/client'
import { Icon } from '~/client/ui/icon'
import { stack } from 'styled-system/patterns'
import { mutedText } from '~/client/ui/text'

type RemoteLoader = (url: string) => Promise<Partial<Track>[]>

/** The one call site of remote.playlist. */
export function useRemotePlaylistLoader(): RemoteLoader {
  const client = useTRPCClient()
  return useCallback((url: string) => client.remote.playlist.query({ url }), [client])
}

export function RemoteSource({ onLoaded }: { onLoaded: (tracks: Track[], label: string, url: string) => void }) {
  const auth = useAuth()
  const load = useRemotePlaylistLoader()
  const form = useForm(RemotePlaylistSchema, { url: '' })
  const [loading, setLoading] = useState(false)
  const signedIn = auth.isAuthenticated
  const blank = form.values.url.trim() === ''

  async function submit(e: React.FormEvent) {
    e.preventDefault()
    if (!signedIn || loading) return
    if (!form.isValid) return form.touchAll()
    const { url } = form.parsed()
    setLoading(true)
    try {
      let items: Partial<Track>[]
      try {
        items = await load(url)
      } catch (error) {
        if (!reportGlobalError(error)) {
          const message = error instanceof TRPCClientError ? error.message || 'Failed to load playlist' : 'Failed to load playlist. Please try again.'
          toast({ title: 'Error', description: message, type: 'error' })
        }
        return
      }
      const { tracks, dropped } = toTracks(Array.isArray(items) ? items : [], url)
      if (tracks.length === 0) {
        toast({ title: 'Error', description: 'No tracks found in the provided URL', type: 'error' })
        return
      }
      const folder = folderNameFromUrl(url)
      onLoaded(tracks, folder, url)
      if (dropped > 0) toast({ title: 'Error', description: 'Error processing audio files. Some files may not play correctly.', type: 'warning' })
      else toast({ title: 'Playlist loaded', description: `Playing ${tracks.length} tracks from ${folder}`, type: 'success' })
    } catch {
      toast({ title: 'Error', description: 'An unexpected error occurred while loading the playlist', type: 'error' })
    } finally {
      setLoading(false)
    }
  }

  return (
    <form onSubmit={submit} noValidate className={stack({ gap: '4' })}>
      {!signedIn && (
        <div
          className={css({
            display: 'flex',
            gap: '3',
            alignItems: 'flex-start',
            p: '4',
            borderRadius: 'xl',
            bg: 'accent.muted',
            borderWidth: '1px',
            borderColor: 'accent.default/40',
          })}
        >
          <span className={css({ color: 'accent.default', mt: '0.5' })}>
            <Icon name="lock" />
          </span>
          <div>
            <p className={css({ fontWeight: 'bold' })}>Premium Feature</p>
            <p className={mutedText()}>Sign in to access remote streaming.</p>
            <Link to="/login" className={button({ variant: 'outline', size: 'sm' }) + ' ' + css({ mt: '3' })}>
              Login
            </Link>
          </div>
        </div>
      )}
      <TextField
        label="Remote Folder URL"
        name="url"
        type="url"
        inputMode="url"
        autoComplete="url"
        placeholder="https://example.com/music/my-album/"
        hint="Enter a URL to a folder containing audio files"
        value={form.values.url}
        disabled={!signedIn || loading}
        error={form.error('url')}
        onValueChange={(v) => form.set('url', v)}
        onBlur={() => form.touch('url')}
      />
      <Button type="submit" disabled={!signedIn || loading || blank} className={css({ alignSelf: { base: 'stretch', sm: 'flex-start' } })}>
        <Icon name="globe" size={18} />
        {!signedIn ? 'Sign in to Access' : loading ? 'Loading...' : 'Load Remote Playlist'}
      </Button>
    </form>
  )
}
