// One chart: ranked rows with artwork, title, artist, the Explicit tag and a Listen button. For a
// signed-in member the server attaches the library track of each entry the library holds
// (`play`): Listen plays it in the one player, followed by the chart's other playable entries.
// Where nothing matches (and for visitors) Listen stays disabled with "Listening functionality
// unavailable". A held entry also has the track menu every library list has (TrackActions).
import { useState } from 'react'
import { css } from 'styled-system/css'
import { playTracks } from '~/client/features/library/play'
import { TrackActions } from '~/client/features/library/track-actions'
import { Tooltip } from '~/client/ui/tooltip'
import type { LibraryTrack } from '~/shared/library'
import { safeArtUrl } from '~/shared/validators/charts'

export const LISTEN_UNAVAILABLE = 'Listening functionality unavailable'

export type ChartTrackView = { rank: number; title: string; artist: string; art: string | null; explicit: boolean; play?: LibraryTrack }

const row = css({
  display: 'grid',
  gridTemplateColumns: { base: '2rem 3rem 1fr auto', sm: '2.5rem 3.5rem 1fr auto' },
  alignItems: 'center',
  gap: { base: '3', sm: '4' },
  px: { base: '3', sm: '4' },
  py: '3',
  borderRadius: 'xl',
  transition: 'background 0.15s',
  _hover: { bg: 'bg.subtle' },
})

/** The cover, or a note glyph when there is none, it is not a plain http(s) URL (the server already
 *  filtered; this is the last line), or it fails to load. */
function Artwork({ src }: { src: string | null }) {
  const [broken, setBroken] = useState(false)
  const box = css({ w: { base: '12', sm: '14' }, h: { base: '12', sm: '14' }, borderRadius: 'lg', overflow: 'hidden', flexShrink: 0, bg: 'bg.muted' })
  const safe = safeArtUrl(src, 'any')
  if (!safe || broken) {
    return (
      <span
        aria-hidden
        className={`${box} ${css({ display: 'grid', placeItems: 'center', bgGradient: 'to-br', gradientFrom: 'accent.default/40', gradientTo: 'accent.pink/40', color: 'fg.default', fontSize: 'xl' })}`}
      >
        ♪
      </span>
    )
  }
  return (
    <img
      src={safe}
      alt=""
      width={56}
      height={56}
      loading="lazy"
      decoding="async"
      referrerPolicy="no-referrer"
      onError={() => setBroken(true)}
      className={`${box} ${css({ objectFit: 'cover' })}`}
    />
  )
}

const listenButton = css({
  h: '8',
  w: { base: '8', sm: 'auto' },
  justifyContent: 'center',
  px: { base: '0', sm: '3.5' },
  borderRadius: 'full',
  borderWidth: '1px',
  borderColor: 'border.default',
  fontSize: 'xs',
  fontWeight: 'semibold',
  display: 'inline-flex',
  alignItems: 'center',
  gap: '1.5',
})

export function ChartList({ tracks, label }: { tracks: ChartTrackView[]; label: string }) {
  const playable = tracks.flatMap((t) => (t.play ? [t.play] : []))
  return (
    <>
      <span id="listen-unavailable" hidden>
        {LISTEN_UNAVAILABLE}
      </span>
      <ol aria-label="Most-Played Songs" className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
        {tracks.map((t) => (
          <li key={`${t.rank}-${t.title}`} className={row}>
            <span
              className={css({
                fontSize: { base: 'md', sm: 'lg' },
                fontWeight: 'extrabold',
                color: t.rank <= 3 ? 'accent.default' : 'fg.subtle',
                textAlign: 'center',
                fontVariantNumeric: 'tabular-nums',
              })}
            >
              {t.rank}
            </span>
            <Artwork src={t.art} />
            <div className={css({ minW: 0 })}>
              <p className={css({ fontWeight: 'semibold', truncate: true, display: 'flex', alignItems: 'center', gap: '2' })}>
                <span dir="auto" className={css({ truncate: true })} data-part="title">
                  {t.title}
                </span>
                {t.explicit && (
                  <span
                    title="Explicit"
                    className={css({
                      flexShrink: 0,
                      fontSize: '0.625rem',
                      fontWeight: 'bold',
                      textTransform: 'uppercase',
                      letterSpacing: 'wide',
                      px: '1.5',
                      py: '0.5',
                      borderRadius: 'sm',
                      bg: 'bg.muted',
                      color: 'fg.muted',
                    })}
                  >
                    <span aria-hidden className={css({ display: { base: 'inline', sm: 'none' } })}>
                      E
                    </span>
                    <span className={css({ srOnly: { base: true, sm: false } })}>Explicit</span>
                  </span>
                )}
              </p>
              <p className={css({ fontSize: 'sm', color: 'fg.muted', truncate: true })} data-part="artist">
                <bdi>{t.artist || 'Unknown Artist'}</bdi>
              </p>
            </div>
            <div className={css({ display: 'flex', alignItems: 'center', gap: '1' })}>
              {t.play ? (
                <button
                  type="button"
                  aria-label={`Listen to ${t.title}`}
                  onClick={() => t.play && playTracks(playable, label, playable.indexOf(t.play))}
                  className={`${listenButton} ${css({ color: 'accent.fg', bg: 'accent.default', borderColor: 'accent.default', cursor: 'pointer', _hover: { opacity: 0.9 } })}`}
                >
                  <span aria-hidden>▶</span>
                  <span className={css({ srOnly: { base: true, sm: false } })}>Listen</span>
                </button>
              ) : (
                <Tooltip content={LISTEN_UNAVAILABLE}>
                  <span className={css({ display: 'inline-flex' })}>
                    <button
                      type="button"
                      disabled
                      aria-describedby="listen-unavailable"
                      className={`${listenButton} ${css({ color: 'fg.muted', cursor: 'not-allowed', opacity: 0.6 })}`}
                    >
                      <span aria-hidden>▶</span>
                      <span className={css({ srOnly: { base: true, sm: false } })}>Listen</span>
                    </button>
                  </span>
                </Tooltip>
              )}
              {t.play ? (
                <TrackActions track={t.play} label={label} />
              ) : (
                // Keeps the Listen buttons in one column when other rows have a menu.
                playable.length > 0 && <span aria-hidden className={css({ w: '11', flexShrink: 0 })} />
              )}
            </div>
          </li>
        ))}
      </ol>
    </>
  )
}
