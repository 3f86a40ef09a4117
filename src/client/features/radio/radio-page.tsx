// /radio: the internet radio stations admins keep, the member's favourites first. Play puts every
// station into the one player (so Next and Previous change station) and tunes in to the one
// picked; the star keeps a favourite. The station playing shows what it plays now.
import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { css, cx } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import { useAuth } from '~/client/features/auth/auth-store'
import { currentTrack } from '~/client/features/player/engine'
import { player, usePlayer } from '~/client/features/player/player-store'
import { errorMessage } from '~/client/global-errors'
import { useTRPC } from '~/client/trpc'
import { Icon } from '~/client/ui/icon'
import { mutedText } from '~/client/ui/text'
import { toast } from '~/client/ui/toaster'
import { makeTrack } from '~/shared/player/track'
import { useStationTitle } from './now-playing'
import { ellipsis } from '~/client/ui/list-row'

type Station = { id: string; name: string; homepageUrl: string | null; favourite: boolean; listenUrl: string }

export const RADIO_ALBUM = 'Internet radio'

const stationTrack = (s: Station) => makeTrack({ url: s.listenUrl, title: s.name, artist: '', album: RADIO_ALBUM })

const row = css({
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  p: '2',
  minH: '14',
  borderRadius: 'xl',
  _hover: { bg: 'bg.subtle' },
  '&[data-current]': { bg: 'bg.muted' },
})
const roundButton = css({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  w: '11',
  h: '11',
  flexShrink: 0,
  borderRadius: 'full',
  cursor: 'pointer',
  color: 'fg.default',
  _hover: { bg: 'bg.subtle' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent.default' },
})
const playCircle = css({ bg: 'accent.default', color: 'accent.fg', _hover: { bg: 'accent.default', opacity: 0.9 } })

function playStations(stations: Station[], index: number) {
  const send = player().send
  send({ type: 'replace', tracks: stations.map(stationTrack), context: { source: 'folder', label: 'Radio' }, autoPlay: true })
  if (index > 0) send({ type: 'select', index })
}

export function RadioPage() {
  const trpc = useTRPC()
  const auth = useAuth()
  const stations = useSuspenseQuery(trpc.radio.list.queryOptions()).data
  const { engine } = usePlayer()
  const current = currentTrack(engine)
  const nowTitle = useStationTitle(current, engine.playing)
  const queryClient = useQueryClient()
  const favourite = useMutation(
    trpc.radio.favourite.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.radio.list.queryKey() }),
      onError: (e) => toast({ title: 'Could not change the favourite', description: errorMessage(e, 'An unexpected error occurred'), type: 'error' }),
    }),
  )

  return (
    <section className={stack({ gap: '6' })}>
      <header className={stack({ gap: '1' })}>
        <h1 className={css({ fontSize: { base: '2xl', md: '3xl' }, fontWeight: 'bold' })}>Radio</h1>
        <p className={mutedText({ size: 'sm' })}>Live internet radio stations. Star the ones you like to keep them at the top.</p>
      </header>
      {stations.length === 0 ? (
        <p className={css({ color: 'fg.muted', py: '6' })}>
          No stations yet.{' '}
          {auth.isAdmin ? (
            <Link to="/admin/music" className={css({ color: 'accent.default', textDecoration: 'underline' })}>
              Add one on the admin Music page.
            </Link>
          ) : (
            'An admin can add some.'
          )}
        </p>
      ) : (
        <ul aria-label="Stations" className={stack({ gap: '1' })}>
          {stations.map((s, i) => {
            const isCurrent = current?.url === s.listenUrl
            const onAir = isCurrent && engine.playing
            return (
              <li key={s.id} className={row} data-current={isCurrent || undefined} data-testid="station">
                <button
                  type="button"
                  className={cx(roundButton, playCircle)}
                  aria-label={onAir ? `Pause ${s.name}` : `Play ${s.name}`}
                  onClick={() => (isCurrent ? player().send({ type: 'togglePlay' }) : playStations(stations, i))}
                >
                  <Icon name={onAir ? 'pause' : 'play'} size={18} />
                </button>
                <span className={css({ display: 'flex', flexDirection: 'column', minW: 0, flex: '1' })}>
                  <span className={cx(ellipsis, css({ fontWeight: 'semibold' }))}>{s.name}</span>
                  <span className={cx(ellipsis, mutedText({ size: 'xs' }))} data-testid={isCurrent ? 'station-now-playing' : undefined}>
                    {isCurrent && nowTitle ? nowTitle : onAir ? 'Live' : s.homepageUrl ? new URL(s.homepageUrl).host : 'Internet radio'}
                  </span>
                </span>
                {s.homepageUrl && (
                  <a href={s.homepageUrl} target="_blank" rel="noopener noreferrer" className={roundButton} aria-label={`${s.name} homepage`} title="Homepage">
                    <Icon name="globe" size={18} />
                  </a>
                )}
                <button
                  type="button"
                  className={roundButton}
                  aria-label={`Favourite ${s.name}`}
                  aria-pressed={s.favourite}
                  title={s.favourite ? 'Remove from favourites' : 'Add to favourites'}
                  disabled={favourite.isPending}
                  onClick={() => favourite.mutate({ id: s.id, favourite: !s.favourite })}
                >
                  <Icon name="star" size={18} filled={s.favourite} />
                </button>
              </li>
            )
          })}
        </ul>
      )}
    </section>
  )
}
