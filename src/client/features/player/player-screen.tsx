// The home screen's player: the Local Files / Remote URL tabs, the source
// chooser, the player and the Featured Promotions grid. Logging out clears the playlists, the
// source and the current track. The lists load into the one player (player-store.ts),
// which keeps playing when this screen is left.
import { Tabs } from '@ark-ui/react/tabs'
import { lazy, Suspense, useEffect, useState } from 'react'
import { css } from 'styled-system/css'
import { LOGOUT_EVENT, useAuth } from '~/client/features/auth/auth-store'
import type { Track } from '~/shared/player/track'
import { Icon } from '~/client/ui/icon'
import { localLibrary, useLocalLibrary } from './local-library'
import type { PickedFile } from './local-library'
import { LocalSource, useFolderDrop } from './local-source'
import { Player } from './player'
import { player, usePlayer } from './player-store'
import { FeaturedPromotions } from './promotions'
import { clearStoredPlaylist, loadStoredPlaylist, saveStoredPlaylist } from './stored-playlists'
import { stack } from 'styled-system/patterns'
import { card } from '~/client/ui/card'

// The Remote URL form (and the validators it brings) loads when its tab is first opened.
const loadRemoteSource = () => import('./remote-source')
const RemoteSource = lazy(() => loadRemoteSource().then((m) => ({ default: m.RemoteSource })))
// Members' playlist panel with "Liked songs" loads when they first open "Show playlist".
const MemberPlaylist = lazy(() => import('./liked-songs'))
// The lyrics panel (and its query) loads with the first track the full player shows.
const LyricsPanel = lazy(() => import('./lyrics-panel'))

type Source = 'local' | 'remote'
type RemoteList = { tracks: Track[]; label: string; url: string; autoPlay: boolean }

const tabTrigger = css({
  flex: { base: '1', sm: 'initial' },
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  gap: '2',
  px: { base: '2', sm: '4' },
  h: '10',
  whiteSpace: 'nowrap',
  fontSize: 'sm',
  fontWeight: 'semibold',
  color: 'fg.muted',
  borderRadius: 'lg',
  cursor: 'pointer',
  _hover: { color: 'fg.default' },
  '&[data-selected]': { bg: 'bg.muted', color: 'fg.default' },
})

export function PlayerScreen() {
  const auth = useAuth()
  const library = useLocalLibrary()
  const { engine } = usePlayer()
  const [tab, setTab] = useState<Source>('local')
  const [remote, setRemote] = useState<RemoteList | null>(null)

  const play = (which: Source, list: { tracks: Track[]; label: string }, autoPlay: boolean) =>
    player().send({ type: 'replace', tracks: list.tracks, context: { source: which, label: list.label }, autoPlay })

  // A member's last remote playlist survives a reload (shown, without starting by itself).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when sign-in settles; `play` is a fresh closure each render
  useEffect(() => {
    if (!auth.ready || !auth.isAuthenticated || remote) return
    const stored = loadStoredPlaylist('remote')
    if (!stored || stored.tracks.length === 0) return
    setRemote({ tracks: stored.tracks, label: stored.label, url: stored.url ?? '', autoPlay: false })
    if (player().get().engine.tracks.length === 0) play('remote', stored, false)
  }, [auth.ready, auth.isAuthenticated, remote])

  useEffect(() => {
    const onLogout = () => {
      setRemote(null)
      setTab('local')
    }
    window.addEventListener(LOGOUT_EVENT, onLogout)
    return () => window.removeEventListener(LOGOUT_EVENT, onLogout)
  }, [])

  const loadLocal = (files: PickedFile[], folderLabel?: string) =>
    void library.load(files, folderLabel).then((ok) => {
      if (ok) player().loadLocal(localLibrary.get().tracks, localLibrary.get().label)
    })
  const drop = useFolderDrop(loadLocal)

  // What plays is the player's: this screen shows it, whichever page started it.
  const remoteAllowed = auth.isAuthenticated && remote !== null
  const active: Source = engine.context?.source === 'remote' && remoteAllowed ? 'remote' : 'local'
  const choose = (to: Source) => {
    if (to === active) return
    if (to === 'remote' && remote) play('remote', remote, remote.autoPlay)
    else play('local', library, true)
  }

  return (
    <div className={stack({ gap: '6' })}>
      <header className={css({ textAlign: 'center', pt: { base: '2', md: '4' } })}>
        <h1
          className={css({
            fontSize: { base: '3xl', md: '5xl' },
            fontWeight: 'extrabold',
            letterSpacing: 'tight',
            bgGradient: 'to-r',
            gradientFrom: 'accent.default',
            gradientTo: 'accent.pink',
            bgClip: 'text',
            color: 'transparent',
          })}
        >
          Feel the Vibes
        </h1>
        <p className={css({ color: 'fg.muted', mt: '1' })}>Your premium music destination</p>
      </header>

      <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', lg: 'minmax(0, 5fr) minmax(0, 7fr)' }, gap: '6', alignItems: 'start' })}>
        <div className={stack({ gap: '4' })}>
          <Tabs.Root lazyMount value={tab} onValueChange={(d) => setTab(d.value as Source)} className={card({ size: 'list' })}>
            <Tabs.List aria-label="Media source" className={css({ display: 'flex', gap: '1', p: '1', bg: 'bg.subtle', borderRadius: 'xl', mb: '4' })}>
              <Tabs.Trigger value="local" className={tabTrigger}>
                <Icon name="folder" size={16} />
                Local Files
              </Tabs.Trigger>
              <Tabs.Trigger value="remote" className={tabTrigger} onPointerEnter={() => void loadRemoteSource()} onFocus={() => void loadRemoteSource()}>
                {auth.isAuthenticated ? <Icon name="globe" size={16} /> : <Icon name="lock" size={16} />}
                Remote URL
              </Tabs.Trigger>
            </Tabs.List>
            <Tabs.Content value="local">
              <LocalSource error={library.error} onFiles={loadLocal} />
            </Tabs.Content>
            <Tabs.Content value="remote">
              <Suspense fallback={<p className={css({ py: '8', textAlign: 'center', fontSize: 'sm', color: 'fg.muted' })}>Loading...</p>}>
                <RemoteSource
                  onLoaded={(list, folder, url) => {
                    setRemote({ tracks: list, label: folder, url, autoPlay: true })
                    saveStoredPlaylist('remote', { label: folder, url, tracks: list })
                    play('remote', { tracks: list, label: folder }, true)
                  }}
                />
              </Suspense>
            </Tabs.Content>
          </Tabs.Root>

          <SourceChooser
            active={active}
            localCount={library.tracks.length}
            remoteCount={remote?.tracks.length ?? 0}
            remoteAllowed={remoteAllowed}
            onChange={choose}
            onForgetRemote={() => {
              clearStoredPlaylist('remote')
              setRemote(null)
              if (active === 'remote') play('local', library, true)
            }}
          />
        </div>

        {/* A folder dropped anywhere on the player plays too. On phones a loaded player comes
            first, so its controls are in view without scrolling (the picker follows it). */}
        {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop target only; keyboard users pick folders with the Select buttons */}
        <div
          data-testid="player-drop-zone"
          data-dragging={drop.dragging || undefined}
          data-loaded={engine.tracks.length > 0 || undefined}
          onDragOver={drop.handlers.onDragOver}
          onDragLeave={drop.handlers.onDragLeave}
          onDrop={(e) => void drop.handlers.onDrop(e)}
          className={css({
            position: 'relative',
            borderRadius: '2xl',
            '&[data-loaded]': { order: { base: -1, lg: 0 } },
            '&[data-dragging]': { outline: '2px dashed', outlineColor: 'accent.default', outlineOffset: '4px' },
          })}
        >
          <Player MemberPlaylist={MemberPlaylist} Lyrics={LyricsPanel} />
        </div>
      </div>

      <FeaturedPromotions />
    </div>
  )
}

/** Switches the player between the local and the remote playlist (remote only when signed in). */
function SourceChooser(p: {
  active: Source
  localCount: number
  remoteCount: number
  remoteAllowed: boolean
  onChange: (s: Source) => void
  onForgetRemote: () => void
}) {
  if (!p.remoteAllowed) return null
  const option = css({
    flex: '1',
    h: '9',
    fontSize: 'sm',
    borderRadius: 'lg',
    cursor: 'pointer',
    color: 'fg.muted',
    '&[aria-checked=true]': { bg: 'accent.muted', color: 'fg.default', fontWeight: 'semibold' },
    _disabled: { opacity: 0.5, cursor: 'not-allowed' },
  })
  return (
    <div
      className={css({
        bg: 'bg.surface',
        borderWidth: '1px',
        borderColor: 'border.default',
        borderRadius: '2xl',
        p: '3',
        display: 'flex',
        flexDirection: 'column',
        gap: '2',
      })}
    >
      <p id="source-chooser" className={css({ fontSize: 'xs', fontWeight: 'semibold', color: 'fg.muted', textTransform: 'uppercase', letterSpacing: 'wider' })}>
        Playing from
      </p>
      {/* A radio group: one tab stop, arrows move the choice (WAI-ARIA radio pattern). */}
      <div
        role="radiogroup"
        aria-labelledby="source-chooser"
        onKeyDown={(e) => {
          const to: Source | null = ['ArrowLeft', 'ArrowUp'].includes(e.key) ? 'local' : ['ArrowRight', 'ArrowDown'].includes(e.key) ? 'remote' : null
          if (!to) return
          e.preventDefault()
          p.onChange(to)
          e.currentTarget.querySelector<HTMLElement>(`[data-value=${to}]`)?.focus()
        }}
        className={css({ display: 'flex', gap: '1', p: '1', bg: 'bg.subtle', borderRadius: 'xl' })}
      >
        {/* biome-ignore lint/a11y/useSemanticElements: a segmented control of buttons with roving focus (the Local/Remote toggle) */}
        <button
          type="button"
          role="radio"
          data-value="local"
          aria-checked={p.active === 'local'}
          tabIndex={p.active === 'local' ? 0 : -1}
          className={option}
          onClick={() => p.onChange('local')}
        >
          Local ({p.localCount})
        </button>
        {/* biome-ignore lint/a11y/useSemanticElements: as above */}
        <button
          type="button"
          role="radio"
          data-value="remote"
          aria-checked={p.active === 'remote'}
          tabIndex={p.active === 'remote' ? 0 : -1}
          className={option}
          onClick={() => p.onChange('remote')}
        >
          Remote ({p.remoteCount})
        </button>
      </div>
      <button
        type="button"
        onClick={p.onForgetRemote}
        className={css({ alignSelf: 'flex-end', fontSize: 'xs', color: 'fg.subtle', cursor: 'pointer', _hover: { color: 'fg.default' } })}
      >
        Clear remote playlist
      </button>
    </div>
  )
}
