// /podcasts: the member's podcasts (each with its count of episodes new since they last opened
// it), a form to follow a feed by URL, and Refresh all. docs/decisions/078.
import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { type FormEvent, useState } from 'react'
import { css, cva, cx } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import { plural } from '~/client/features/library/format'
import { errorMessage } from '~/client/global-errors'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { CoverTile } from '~/client/ui/cover-tile'
import { Icon } from '~/client/ui/icon'
import { mutedText } from '~/client/ui/text'
import { TextField } from '~/client/ui/text-field'
import { toast } from '~/client/ui/toaster'
import { channelArtworkPath } from '~/shared/podcasts'
import { ellipsis, indexRow } from '~/client/ui/list-row'

export const newBadge = css({
  flexShrink: 0,
  px: '2',
  py: '0.5',
  borderRadius: 'full',
  bg: 'accent.default',
  color: 'accent.fg',
  fontSize: 'xs',
  fontWeight: 'semibold',
})

const artwork = cva({
  base: { flexShrink: 0, objectFit: 'cover', bg: 'bg.subtle' },
  variants: {
    size: {
      sm: { w: '12', h: '12', borderRadius: 'lg' },
      lg: { w: { base: '36', md: '48' }, h: { base: '36', md: '48' }, borderRadius: '2xl', boxShadow: 'xl' },
    },
  },
})

/**
 * The podcast's artwork beside its name, through the server (the page loads no outside images);
 * the plain podcast tile when the feed names none or it cannot be shown.
 */
export function PodcastTile({ size, channel }: { size: 'sm' | 'lg'; channel: { id: string; artworkUrl: string | null } }) {
  const [failed, setFailed] = useState(false)
  if (!channel.artworkUrl || failed) return <CoverTile size={size} icon="podcast" fadeTo="pink" />
  return (
    <img
      src={channelArtworkPath(channel.id, size === 'lg' ? 512 : 128)}
      alt=""
      loading="lazy"
      decoding="async"
      onError={() => setFailed(true)}
      className={artwork({ size })}
    />
  )
}

export function PodcastsPage() {
  const trpc = useTRPC()
  const channels = useSuspenseQuery(trpc.podcasts.list.queryOptions()).data
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const [url, setUrl] = useState('')
  const [error, setError] = useState<string | undefined>()
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.podcasts.pathKey() })
  const subscribe = useMutation(
    trpc.podcasts.subscribe.mutationOptions({
      onSuccess: (channel) => {
        setUrl('')
        setError(undefined)
        void invalidate()
        toast({ title: `Subscribed to ${channel.title}`, type: 'success' })
        void navigate({ to: '/podcasts/$id', params: { id: channel.id } })
      },
      onError: (e) => setError(errorMessage(e, 'Could not read that feed')),
    }),
  )
  const refresh = useMutation(
    trpc.podcasts.refresh.mutationOptions({
      onSuccess: (results) => {
        void invalidate()
        const failed = results.filter((r) => r.error).length
        toast({ title: failed ? `Refreshed; ${plural(failed, 'feed')} could not be read` : 'Podcasts refreshed', type: failed ? 'info' : 'success' })
      },
      onError: (e) => toast({ title: 'Could not refresh', description: errorMessage(e, 'Please try again.'), type: 'error' }),
    }),
  )
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (url.trim()) subscribe.mutate({ url: url.trim() })
  }

  return (
    <section className={stack({ gap: '6' })}>
      <header className={css({ display: 'flex', flexWrap: 'wrap', gap: '3', alignItems: 'center', justifyContent: 'space-between' })}>
        <h1 className={css({ fontSize: { base: '2xl', md: '3xl' }, fontWeight: 'bold' })}>Podcasts</h1>
        {channels.length > 0 && (
          <Button size="lg" variant="outline" onClick={() => refresh.mutate(undefined)} disabled={refresh.isPending}>
            <Icon name="refresh" size={18} /> {refresh.isPending ? 'Refreshing…' : 'Refresh all'}
          </Button>
        )}
      </header>
      <form onSubmit={submit} className={css({ display: 'flex', gap: '3', alignItems: 'flex-end', flexWrap: 'wrap' })}>
        <TextField
          label="Feed URL"
          type="url"
          inputMode="url"
          placeholder="https://example.com/podcast.xml"
          value={url}
          onValueChange={(v) => {
            setUrl(v)
            setError(undefined)
          }}
          error={error}
          className={css({ flex: '1', minW: '60' })}
        />
        <Button type="submit" size="lg" disabled={subscribe.isPending || !url.trim()}>
          {subscribe.isPending ? 'Subscribing…' : 'Subscribe'}
        </Button>
      </form>
      {channels.length === 0 ? (
        <p className={css({ color: 'fg.muted', py: '6' })}>No podcasts yet. Paste a podcast’s feed URL (RSS or Atom) above to follow it.</p>
      ) : (
        <ul aria-label="Your podcasts" className={stack({ gap: '1' })}>
          {channels.map((c) => (
            <li key={c.id}>
              <Link to="/podcasts/$id" params={{ id: c.id }} className={indexRow}>
                <PodcastTile size="sm" channel={c} />
                <span className={css({ display: 'flex', flexDirection: 'column', minW: 0, flex: '1' })}>
                  <span className={cx(ellipsis, css({ fontWeight: 'semibold' }))}>{c.title}</span>
                  <span className={cx(ellipsis, mutedText({ size: 'xs' }))}>
                    {c.author ? `${c.author} · ` : ''}
                    {plural(c.episodeCount, 'episode')}
                    {c.lastError ? ' · could not be refreshed' : ''}
                  </span>
                </span>
                {c.newCount > 0 && <span className={newBadge}>{c.newCount} new</span>}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
