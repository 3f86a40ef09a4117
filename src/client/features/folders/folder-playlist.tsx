// TEMPORARY stand-in for the player issue's <Player tracks source="folder" playlistId label />
// (src/client/features/player/player.tsx, not in this branch yet): a plain <audio>/<video>
// element for the current track and the track list. Replaced when the player lands.
import { useState } from 'react'
import { css, cx } from 'styled-system/css'

export type FolderTrack = { url: string; title: string; mime: string; artist: string; album: string; duration: number; cover?: string }

const time = (s: number) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}`

export function FolderPlaylist({ tracks, label }: { tracks: FolderTrack[]; playlistId: string; label: string }) {
  const [index, setIndex] = useState(0)
  const current = tracks[index]
  const isVideo = current.mime.startsWith('video')
  const next = () => setIndex((i) => (i + 1 < tracks.length ? i + 1 : i))
  const media = { src: current.url, controls: true, autoPlay: index > 0, onEnded: next, className: css({ w: 'full' }), 'aria-label': `${current.title} — ${label}` }
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '4', bg: 'bg.surface', borderWidth: '1px', borderColor: 'border.default', borderRadius: '2xl', p: { base: '4', md: '6' } })}>
      <div>
        <p className={css({ fontSize: 'xs', fontWeight: 'bold', color: 'accent.default', letterSpacing: 'wider' })}>NOW PLAYING</p>
        <p className={css({ fontSize: 'xl', fontWeight: 'bold' })}>{current.title}</p>
        {current.artist && <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>{current.artist}</p>}
      </div>
      {isVideo ? <video key={current.url} {...media} /> : <audio key={current.url} {...media} />}
      <ol aria-label="Tracks" className={css({ display: 'flex', flexDirection: 'column', gap: '1', maxH: '30vh', overflowY: 'auto' })}>
        {tracks.map((t, i) => (
          <li key={t.url}>
            <button
              type="button"
              onClick={() => setIndex(i)}
              aria-current={i === index ? 'true' : undefined}
              className={cx(css({ w: 'full', display: 'flex', justifyContent: 'space-between', gap: '3', textAlign: 'left', px: '3', py: '2', borderRadius: 'lg', cursor: 'pointer', _hover: { bg: 'bg.subtle' } }), i === index ? css({ bg: 'accent.muted' }) : undefined)}
            >
              <span className={css({ minW: '0', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' })}>
                {t.title}
                {t.artist && <span className={css({ color: 'fg.muted' })}> — {t.artist}</span>}
              </span>
              <span className={css({ color: 'fg.subtle', fontVariantNumeric: 'tabular-nums' })}>{time(t.duration)}</span>
            </button>
          </li>
        ))}
      </ol>
    </div>
  )
}
