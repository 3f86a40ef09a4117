// /podcasts/$id: one podcast: its episodes newest first in the app's virtual list (a feed may
// hold thousands; the first page shows at once, the rest follow), a search within them, each
// episode's place or "Played", "New" on those published since the member's last visit; a row
// plays the episode in the one player from where the member left it. Refresh, download an
// episode to the server, unsubscribe.
import { useInfiniteQuery, useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { useEffect, useRef, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import { backLink } from '~/client/features/library/album-page'
import { clock, plural } from '~/client/features/library/format'
import { iconButton } from '~/client/features/library/track-actions'
import { useCurrentTrackId } from '~/client/features/library/track-list'
import { VirtualList } from '~/client/features/player/virtual-list'
import { errorMessage } from '~/client/global-errors'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { Icon } from '~/client/ui/icon'
import { inputClass } from '~/client/ui/input-class'
import { mutedText } from '~/client/ui/text'
import { toast } from '~/client/ui/toaster'
import { episodeAudioPath } from '~/shared/podcasts'
import { playEpisode, queueEpisode } from './play-episodes'
import { newBadge, PodcastTile } from './podcasts-page'
import { ellipsis, entryRow } from '~/client/ui/list-row'

const PAGE = 200
/** Row height of the virtual list (px): a title over a line of date, length and place. */
const ROW = 60

const dateFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' })

/** "12:34 left", "Played" or the length. */
function placeOf(e: { durationSec: number; positionMs: number; played: boolean }): string {
  if (e.played) return 'Played'
  const at = e.positionMs / 1000
  if (at > 0 && e.durationSec > at) return `${clock(e.durationSec - at)} left`
  if (at > 0) return `At ${clock(at)}`
  return e.durationSec ? clock(e.durationSec) : ''
}

/** The search box's words once typing pauses. */
function useSettled(value: string, ms = 250) {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(t)
  }, [value, ms])
  return settled
}

export function ChannelPage({ id }: { id: string }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const channel = useSuspenseQuery(trpc.podcasts.channel.queryOptions({ channelId: id })).data
  // "New" is judged against the visit before this one: opening the page marks everything seen.
  const seenBefore = useRef(channel.visitedAt)
  const visit = useMutation(trpc.podcasts.visit.mutationOptions())
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per channel opened
  useEffect(() => {
    visit.mutate({ channelId: id }, { onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.podcasts.list.queryKey() }) })
  }, [id])
  const [search, setSearch] = useState('')
  const words = useSettled(search.trim())
  const episodes = useInfiniteQuery(
    trpc.podcasts.episodes.infiniteQueryOptions(
      { channelId: id, search: words || undefined, limit: PAGE },
      { initialCursor: 0, getNextPageParam: (last, pages) => (pages.length * PAGE < last.total ? pages.length * PAGE : undefined) },
    ),
  )
  // Later pages follow on their own: the list is whole soon after the first rows show.
  useEffect(() => {
    if (episodes.hasNextPage && !episodes.isFetchingNextPage) void episodes.fetchNextPage()
  }, [episodes.hasNextPage, episodes.isFetchingNextPage, episodes.fetchNextPage])
  const list = episodes.data?.pages.flatMap((p) => p.episodes) ?? []
  const total = episodes.data?.pages[0]?.total ?? 0
  const current = useCurrentTrackId()
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.podcasts.pathKey() })
  const onError = (title: string) => (e: unknown) => toast({ title, description: errorMessage(e, 'Please try again.'), type: 'error' })
  const refresh = useMutation(
    trpc.podcasts.refresh.mutationOptions({
      onSuccess: ([result]) => {
        void invalidate()
        if (result?.error) toast({ title: 'Could not refresh the feed', description: result.error, type: 'error' })
        else toast({ title: result?.changed ? 'New episodes loaded' : 'Already up to date', type: 'success' })
      },
      onError: onError('Could not refresh the feed'),
    }),
  )
  const unsubscribe = useMutation(
    trpc.podcasts.unsubscribe.mutationOptions({
      onSuccess: () => {
        void invalidate()
        toast({ title: `Unsubscribed from ${channel.title}`, type: 'success' })
        void navigate({ to: '/podcasts' })
      },
      onError: onError('Could not unsubscribe'),
    }),
  )
  const download = useMutation(
    trpc.podcasts.download.mutationOptions({ onSuccess: () => void invalidate(), onError: onError('Could not download the episode') }),
  )
  const removeDownload = useMutation(
    trpc.podcasts.deleteDownload.mutationOptions({ onSuccess: () => void invalidate(), onError: onError('Could not remove the download') }),
  )

  return (
    <section className={stack({ gap: '6' })}>
      <Link to="/podcasts" className={backLink}>
        ← Podcasts
      </Link>
      <header className={css({ display: 'flex', flexDirection: { base: 'column', sm: 'row' }, gap: { base: '4', md: '8' }, alignItems: { sm: 'flex-end' } })}>
        <PodcastTile size="lg" channel={channel} />
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '2', minW: 0 })}>
          <p className={css({ fontSize: 'xs', textTransform: 'uppercase', letterSpacing: 'wider', color: 'fg.muted' })}>Podcast</p>
          <h1 className={css({ fontSize: { base: '2xl', md: '4xl' }, fontWeight: 'extrabold', lineHeight: 'tight', wordBreak: 'break-word' })}>
            {channel.title}
          </h1>
          {channel.author && <p className={css({ fontWeight: 'medium' })}>{channel.author}</p>}
          {channel.description && <p className={css({ color: 'fg.muted', lineClamp: 3, whiteSpace: 'pre-line' })}>{channel.description}</p>}
          <p className={mutedText()}>
            {plural(channel.episodeCount, 'episode')}
            {channel.lastError ? ` · Last refresh failed: ${channel.lastError}` : ''}
          </p>
          <div className={css({ display: 'flex', gap: '1', flexWrap: 'wrap', ml: '-3' })}>
            <Button variant="ghost" className={css({ minH: '11' })} disabled={refresh.isPending} onClick={() => refresh.mutate({ channelId: id })}>
              <Icon name="refresh" size={16} /> {refresh.isPending ? 'Refreshing…' : 'Refresh'}
            </Button>
            <Button variant="ghost" className={css({ minH: '11' })} disabled={unsubscribe.isPending} onClick={() => unsubscribe.mutate({ channelId: id })}>
              Unsubscribe
            </Button>
          </div>
        </div>
      </header>
      <input
        type="search"
        aria-label="Search episodes"
        placeholder="Search episodes"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        className={cx(inputClass, css({ maxW: 'md' }))}
      />
      {episodes.isPending ? (
        <p className={mutedText()}>Loading episodes…</p>
      ) : list.length === 0 ? (
        <p className={css({ color: 'fg.muted', py: '6' })}>{words ? `No episodes match “${words}”.` : 'This feed has no episodes yet.'}</p>
      ) : (
        <>
          <p className={mutedText({ size: 'xs' })} aria-live="polite">
            {words ? `${plural(total, 'episode')} ${total === 1 ? 'matches' : 'match'}` : plural(total, 'episode')}
          </p>
          <VirtualList
            items={list}
            rowHeight={ROW}
            maxHeight="70vh"
            label="Episodes"
            renderRow={(e) => {
              const isNew = e.publishedAt !== null && e.publishedAt > seenBefore.current
              return (
                <div className={css({ display: 'flex', alignItems: 'center', gap: '1', h: 'full' })}>
                  <button
                    type="button"
                    className={entryRow}
                    aria-current={current === episodeAudioPath(e.id) ? 'true' : undefined}
                    onClick={() => playEpisode(e, channel.title)}
                  >
                    <span className={css({ display: 'flex', flexDirection: 'column', minW: 0, flex: '1' })}>
                      <span className={ellipsis}>{e.title}</span>
                      <span className={cx(ellipsis, mutedText({ size: 'xs' }))}>
                        {e.publishedAt ? dateFormat.format(e.publishedAt) : 'Undated'}
                        {e.downloaded ? ' · Downloaded' : ''}
                      </span>
                    </span>
                    {isNew && <span className={newBadge}>New</span>}
                    <span className={css({ fontSize: 'sm', color: 'fg.muted', fontVariantNumeric: 'tabular-nums', flexShrink: 0 })}>{placeOf(e)}</span>
                  </button>
                  <button type="button" className={iconButton} aria-label={`Add ${e.title} to the queue`} onClick={() => queueEpisode(e, channel.title)}>
                    <Icon name="plus" size={16} />
                  </button>
                  <button
                    type="button"
                    className={iconButton}
                    aria-label={e.downloaded ? `Remove the download of ${e.title}` : `Download ${e.title} to the server`}
                    disabled={download.isPending || removeDownload.isPending}
                    onClick={() => (e.downloaded ? removeDownload : download).mutate({ episodeId: e.id })}
                  >
                    <Icon name={e.downloaded ? 'close' : 'download'} size={16} />
                  </button>
                </div>
              )
            }}
          />
        </>
      )}
    </section>
  )
}
