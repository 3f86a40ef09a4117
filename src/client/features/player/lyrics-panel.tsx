// The full player's Lyrics panel: the current library track's lyrics from the server (its sidecar
// .lrc or its tags; decision 067). Synced lyrics mark the line being sung as playback moves
// (aria-current, highlighted, scrolled into the middle of the panel) and a click on a line seeks
// there; plain lyrics are shown as they are, and a track without any (a local file, a remote
// stream) says "No lyrics". Members only: a visitor's player has no server tracks. A lazy chunk,
// loaded by the player screen as the members' playlist panel is.
import { useQuery } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { css } from 'styled-system/css'
import { useAuth } from '~/client/features/auth/auth-store'
import { useTRPC } from '~/client/trpc'
import { card } from '~/client/ui/card'
import { activeLine, lineSeconds, type Lyrics } from '~/shared/lyrics'
import type { Track } from '~/shared/player/track'
import { player, usePlayer } from './player-store'

export type LyricsPanelProps = { track: Track }

/** Synced lyrics when the track has them (they follow playback), else the first set. */
const pick = (sets: Lyrics[]): Lyrics | undefined => sets.find((l) => l.synced) ?? sets[0]

export default function LyricsPanel({ track }: LyricsPanelProps) {
  const auth = useAuth()
  const trpc = useTRPC()
  // Without its signature: the lyrics of a file stay the same when its link is signed afresh.
  const url = track.url.split('?')[0]
  const enabled = auth.isAuthenticated && url.startsWith('/media/')
  const query = useQuery(trpc.library.lyrics.queryOptions({ url }, { enabled, staleTime: 5 * 60_000 }))
  const lyrics = enabled ? pick(query.data?.lyrics ?? []) : undefined
  if (!auth.isAuthenticated) return null

  return (
    <section aria-labelledby="lyrics-heading" data-testid="lyrics-panel" className={card({ size: 'list' })}>
      <h2
        id="lyrics-heading"
        className={css({ fontSize: 'sm', fontWeight: 'semibold', color: 'fg.muted', textTransform: 'uppercase', letterSpacing: 'wider', px: '1', mb: '2' })}
      >
        Lyrics
      </h2>
      {enabled && query.isPending ? (
        <p className={empty}>Loading lyrics…</p>
      ) : !lyrics ? (
        <p data-testid="lyrics-empty" className={empty}>
          No lyrics
        </p>
      ) : lyrics.synced ? (
        <SyncedLyrics lyrics={lyrics} />
      ) : (
        <div data-testid="lyrics-plain" lang={langOf(lyrics)} className={scroller}>
          {lyrics.lines.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines are static text in file order; the same words may repeat
            <p key={i} className={css({ minH: '1lh', color: 'fg.default' })}>
              {line.value}
            </p>
          ))}
        </div>
      )}
    </section>
  )
}

function SyncedLyrics({ lyrics }: { lyrics: Lyrics }) {
  const { currentTime } = usePlayer()
  const current = activeLine(lyrics, currentTime)
  const box = useRef<HTMLOListElement>(null)

  // Scrolls the panel only (not the page) so the sung line sits in its middle, each time another line is sung.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `current` is the trigger; the effect reads the marked line from the DOM
  useEffect(() => {
    const list = box.current
    const line = list?.querySelector<HTMLElement>('[aria-current=true]')
    if (!list || !line) return
    const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches
    list.scrollTo({ top: line.offsetTop - list.clientHeight / 2 + line.clientHeight / 2, behavior: reduced ? 'auto' : 'smooth' })
  }, [current])

  return (
    <ol ref={box} data-testid="lyrics-synced" lang={langOf(lyrics)} className={scroller}>
      {lyrics.lines.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a chorus repeats the same words at other times; the place is the identity
        <li key={i}>
          <button
            type="button"
            aria-current={i === current || undefined}
            onClick={() => player().seekTo(lineSeconds(lyrics, line))}
            className={css({
              display: 'block',
              w: 'full',
              minH: '8',
              textAlign: 'start',
              px: '2',
              py: '1',
              borderRadius: 'md',
              color: 'fg.muted',
              cursor: 'pointer',
              transition: 'color 0.2s, background 0.2s',
              _hover: { bg: 'bg.subtle', color: 'fg.default' },
              '&[aria-current=true]': { color: 'fg.default', fontWeight: 'bold', bg: 'accent.muted' },
            })}
          >
            {line.value || '♪'}
          </button>
        </li>
      ))}
    </ol>
  )
}

/** A two-letter ISO 639-1 code is a valid lang attribute; a three-letter one or the taggers' "unknown" (xxx) gives none. */
const langOf = (lyrics: Lyrics) => (/^[a-z]{2}$/.test(lyrics.lang) ? lyrics.lang : undefined)

const empty = css({ py: '6', textAlign: 'center', fontSize: 'sm', color: 'fg.muted' })
const scroller = css({
  position: 'relative',
  maxH: { base: '45vh', md: '40vh' },
  overflowY: 'auto',
  fontSize: { base: 'md', md: 'lg' },
  lineHeight: '1.6',
  px: '1',
})
