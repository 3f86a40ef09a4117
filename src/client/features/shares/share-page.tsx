// The public page of a share link: the shared tracks (title, artist, album, cover, duration) and a
// plain <audio> that plays them from their signed URLs, one after the other. It is a visitor's
// page, not the app's player: nothing here reads or writes the member's queue, likes or history.
// Each track's first play is reported (shares.play), which records it with source `share`. An
// expired, revoked or unknown link, or one whose playlist was deleted, shows only its message.
import { useMutation } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useRef, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { useTRPC } from '~/client/trpc'
import { card } from '~/client/ui/card'
import { Icon } from '~/client/ui/icon'
import { formatTime } from '~/shared/player/track'
import { expiryText } from './expiry'
import type { OpenShare, ShareOpening } from './types'

export function SharePage({ opening }: { opening: ShareOpening }) {
  if (opening.state !== 'open') return <ShareGone message={opening.message} />
  return <SharedTracks share={opening.share} />
}

function ShareGone({ message }: { message: string }) {
  return (
    <section className={cx(card({ size: 'lg' }), css({ maxW: 'xl', mx: 'auto', mt: { base: '6', md: '16' }, textAlign: 'center' }))}>
      <div className={css({ display: 'grid', placeItems: 'center', mb: '4', color: 'fg.muted' })}>
        <Icon name="lock" size={36} />
      </div>
      <h1 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>{message}</h1>
      <p className={css({ color: 'fg.muted', mt: '2' })}>Ask the person who shared it for a new link.</p>
      <Link
        to="/"
        className={css({ display: 'inline-block', mt: '6', color: 'accent.default', fontWeight: 'semibold', _hover: { textDecoration: 'underline' } })}
      >
        Go to Vibes
      </Link>
    </section>
  )
}

const row = css({
  display: 'grid',
  gridTemplateColumns: '2rem 1fr auto',
  alignItems: 'center',
  gap: '3',
  w: 'full',
  minH: '12',
  px: '3',
  py: '2',
  borderRadius: 'lg',
  textAlign: 'left',
  cursor: 'pointer',
  _hover: { bg: 'bg.subtle' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent.default' },
  '&[aria-current=true]': { bg: 'bg.subtle', color: 'accent.default' },
})

function SharedTracks({ share }: { share: OpenShare }) {
  const trpc = useTRPC()
  const audio = useRef<HTMLAudioElement>(null)
  const [current, setCurrent] = useState<number | null>(null)
  const reported = useRef(new Set<number>())
  const play = useMutation(trpc.shares.play.mutationOptions())
  const cover = share.tracks.find((t) => t.cover)?.cover
  const heading =
    share.kind === 'album' ? 'Shared album' : share.kind === 'playlist' ? 'Shared playlist' : share.tracks.length === 1 ? 'Shared track' : 'Shared tracks'
  const first = share.tracks[0]
  const subtitle =
    share.kind === 'album'
      ? first?.artist
      : share.kind === 'playlist'
        ? `${share.tracks.length} ${share.tracks.length === 1 ? 'track' : 'tracks'}`
        : share.tracks.length === 1
          ? [first?.artist, first?.album].filter(Boolean).join(' · ')
          : ''

  function start(index: number) {
    const track = share.tracks[index]
    const element = audio.current
    if (!track || !element) return
    setCurrent(index)
    element.src = track.url
    void element.play().catch(() => {})
  }

  return (
    <div className={css({ maxW: '3xl', mx: 'auto', display: 'flex', flexDirection: 'column', gap: '6' })}>
      <header className={css({ display: 'flex', flexDirection: { base: 'column', sm: 'row' }, gap: '6', alignItems: { base: 'center', sm: 'flex-end' } })}>
        <div
          className={css({
            w: { base: '48', md: '56' },
            h: { base: '48', md: '56' },
            flexShrink: 0,
            borderRadius: '2xl',
            overflow: 'hidden',
            bg: 'bg.subtle',
            display: 'grid',
            placeItems: 'center',
            color: 'fg.muted',
            boxShadow: 'xl',
          })}
        >
          {cover ? <img src={cover} alt="" className={css({ w: 'full', h: 'full', objectFit: 'cover' })} /> : <Icon name="music" size={64} />}
        </div>
        <div className={css({ textAlign: { base: 'center', sm: 'left' }, minW: '0' })}>
          <p className={css({ fontSize: 'xs', fontWeight: 'semibold', textTransform: 'uppercase', letterSpacing: 'wider', color: 'fg.muted' })}>{heading}</p>
          <h1 className={css({ fontSize: { base: '3xl', md: '4xl' }, fontWeight: 'bold', lineHeight: 'tight', wordBreak: 'break-word' })}>{share.title}</h1>
          {subtitle && <p className={css({ color: 'fg.muted', mt: '1' })}>{subtitle}</p>}
          {share.description && <p className={css({ mt: '3', fontStyle: 'italic' })}>“{share.description}”</p>}
          <button
            type="button"
            onClick={() => start(current ?? 0)}
            className={css({
              mt: '4',
              display: 'inline-flex',
              alignItems: 'center',
              gap: '2',
              h: '11',
              px: '6',
              borderRadius: 'full',
              fontWeight: 'semibold',
              bgGradient: 'to-r',
              gradientFrom: 'accent.default',
              gradientTo: 'accent.pink',
              color: 'accent.fg',
              cursor: 'pointer',
            })}
          >
            <Icon name="play" size={18} /> Play
          </button>
        </div>
      </header>

      <section className={card({ size: 'list' })} aria-label="Shared tracks">
        <ol>
          {share.tracks.map((t, i) => (
            <li key={t.url}>
              <button type="button" className={row} aria-current={current === i} onClick={() => start(i)} aria-label={`Play ${t.title}`}>
                <span className={css({ color: 'fg.muted', fontSize: 'sm', textAlign: 'right' })}>{i + 1}</span>
                <span className={css({ minW: '0' })}>
                  <span className={css({ display: 'block', fontWeight: 'medium', truncate: true })}>{t.title}</span>
                  <span className={css({ display: 'block', fontSize: 'sm', color: 'fg.muted', truncate: true })}>
                    {t.artist}
                    {t.artist && t.album ? ' · ' : ''}
                    {t.album}
                  </span>
                </span>
                <span className={css({ fontSize: 'sm', color: 'fg.muted', fontVariantNumeric: 'tabular-nums' })}>{formatTime(t.duration)}</span>
              </button>
            </li>
          ))}
        </ol>
        {/* biome-ignore lint/a11y/useMediaCaption: music tracks have no captions */}
        <audio
          ref={audio}
          controls
          preload="none"
          data-testid="share-audio"
          className={css({ w: 'full', mt: '3', colorScheme: 'dark' })}
          onPlaying={() => {
            if (current === null || reported.current.has(current)) return
            reported.current.add(current)
            play.mutate({ id: share.id, index: current })
          }}
          onEnded={() => {
            if (current !== null && current + 1 < share.tracks.length) start(current + 1)
          }}
        />
      </section>
      {/* The server's render and the browser's clocks differ by the page's load time. */}
      <p suppressHydrationWarning className={css({ fontSize: 'sm', color: 'fg.muted', textAlign: 'center' })}>
        This link {expiryText(share.expiresAt)}.
      </p>
    </div>
  )
}
