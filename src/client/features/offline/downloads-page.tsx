// /downloads: the albums and playlists downloaded on this device, with their tracks, played in the
// one player from the stored copies. It is also the page the service worker serves when the app
// is opened with no network and downloads are here (src/client/pwa/sw-rules.ts offlineAnswer):
// the worker keeps its anonymous render, so everything shown comes from this device's own storage
// once the page runs (the index of the member signed in here, by the id in their stored sign-in).
import { Link } from '@tanstack/react-router'
import { useSyncExternalStore } from 'react'
import { css } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import { useAuth } from '~/client/features/auth/auth-store'
import { Cover } from '~/client/features/library/cover'
import { clock, plural } from '~/client/features/library/format'
import { playTracks } from '~/client/features/library/play'
import { Button } from '~/client/ui/button'
import { Icon } from '~/client/ui/icon'
import { mutedText } from '~/client/ui/text'
import { formatBytes, type StoredCollection, storedTracks, useDownloads } from './downloads'

function subscribeOnline(listener: () => void) {
  window.addEventListener('online', listener)
  window.addEventListener('offline', listener)
  return () => {
    window.removeEventListener('online', listener)
    window.removeEventListener('offline', listener)
  }
}

/** Whether the device has a network; the server render assumes it does. */
export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribeOnline,
    () => navigator.onLine,
    () => true,
  )
}

const offlineNote = css({
  display: 'flex',
  alignItems: 'center',
  gap: '2',
  px: '4',
  py: '3',
  borderRadius: 'l2',
  bg: 'bg.muted',
  borderWidth: '1px',
  borderColor: 'border.default',
  fontSize: 'sm',
})

export function DownloadsPage() {
  const auth = useAuth()
  const downloads = useDownloads()
  const online = useOnline()
  const collections = downloads.collections.map((c) => ({ ...c, tracks: storedTracks(c, typeof location === 'undefined' ? 'http://x' : location.origin) }))

  let body: React.ReactNode
  if (!auth.ready) body = <p className={mutedText()}>Looking for downloads on this device…</p>
  else if (!auth.isAuthenticated)
    body = (
      <p className={mutedText()}>
        {online ? (
          <>
            <Link to="/login" className={css({ color: 'fg.default', textDecoration: 'underline' })}>
              Sign in
            </Link>{' '}
            to play the music you downloaded on this device.
          </>
        ) : (
          'Sign in when you are back online to play the music you downloaded on this device.'
        )}
      </p>
    )
  else if (!downloads.supported) body = <p className={mutedText()}>This browser can keep downloads only when Vibes is opened over https.</p>
  else if (collections.length === 0)
    body = <p className={mutedText()}>Nothing downloaded on this device yet: use "Download for offline" on an album or playlist.</p>
  else
    body = (
      <ul aria-label="Downloaded albums and playlists" className={stack({ gap: '8' })}>
        {collections.map((c) => (
          <li key={`${c.kind}:${c.id}`}>
            <DownloadedCollection collection={c} />
          </li>
        ))}
      </ul>
    )

  return (
    <section className={stack({ gap: '6' })}>
      <header className={stack({ gap: '1' })}>
        <h1 className={css({ fontSize: { base: '2xl', md: '3xl' }, fontWeight: 'extrabold' })}>Downloads</h1>
        <p className={mutedText()}>Albums and playlists downloaded on this device play here with no network.</p>
      </header>
      {!online && (
        <p role="status" className={offlineNote}>
          <span aria-hidden className={css({ display: 'inline-flex', flexShrink: 0 })}>
            <Icon name="download" size={18} />
          </span>
          You are offline. Your downloaded music plays from this device; the rest of Vibes comes back with the network.
        </p>
      )}
      {body}
    </section>
  )
}

const trackRow = css({
  display: 'grid',
  gridTemplateColumns: '2rem 1fr auto',
  alignItems: 'center',
  gap: '3',
  w: 'full',
  minH: '11',
  px: '2',
  textAlign: 'left',
  borderRadius: 'l2',
  cursor: 'pointer',
  _hover: { bg: 'bg.muted' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent.default' },
})

function DownloadedCollection({ collection: c }: { collection: StoredCollection & { bytes: number; tracks: NonNullable<StoredCollection['tracks']> } }) {
  const headingId = `download-${c.kind}-${c.id}`
  return (
    <section aria-labelledby={headingId} className={stack({ gap: '3' })}>
      <div className={css({ display: 'flex', gap: '4', alignItems: 'flex-end' })}>
        <Cover src={c.tracks[0]?.cover} name={c.name} className={css({ w: { base: '20', md: '28' }, flexShrink: 0 })} />
        <div className={stack({ gap: '1', minW: 0 })}>
          <h2 id={headingId} className={css({ fontSize: { base: 'lg', md: 'xl' }, fontWeight: 'bold', wordBreak: 'break-word' })}>
            {c.name}
          </h2>
          <p className={mutedText()}>
            {c.kind === 'album' ? 'Album' : 'Playlist'} · {plural(c.tracks.length, 'song')} · {formatBytes(c.bytes)} · Downloaded
          </p>
          <div>
            <Button size="lg" disabled={c.tracks.length === 0} aria-label={`Play ${c.name}`} onClick={() => playTracks(c.tracks, c.name)}>
              <Icon name="play" size={18} /> Play
            </Button>
          </div>
        </div>
      </div>
      {c.tracks.length === 0 ? (
        <p className={mutedText()}>Open it once with the network to list its tracks here.</p>
      ) : (
        <ol aria-label={`Tracks of ${c.name}`}>
          {c.tracks.map((t, i) => (
            <li key={t.url}>
              <button type="button" className={trackRow} onClick={() => playTracks(c.tracks, c.name, i)}>
                <span className={mutedText()}>{i + 1}</span>
                <span className={css({ minW: 0 })}>
                  <span className={css({ display: 'block', truncate: true, fontWeight: 'medium' })}>{t.title}</span>
                  <span className={css({ display: 'block', truncate: true, fontSize: 'sm', color: 'fg.muted' })}>{t.artist}</span>
                </span>
                <span className={mutedText()}>{t.duration > 0 ? clock(t.duration) : ''}</span>
              </button>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
