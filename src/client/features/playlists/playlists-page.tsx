// /playlists: the member's own playlists (most recently changed first) with New playlist and
// Import M3U8, then the playlists other members made public (read-only). The lists OpenSubsonic
// apps see too (services/playlists.ts).
import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { type ChangeEvent, useRef, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import { clock, plural } from '~/client/features/library/format'
import { errorMessage } from '~/client/global-errors'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { Icon } from '~/client/ui/icon'
import { mutedText } from '~/client/ui/text'
import { toast } from '~/client/ui/toaster'
import { PLAYLIST_LIMITS } from '~/shared/validators/playlists'
import { PlaylistPicker } from './playlist-picker'
import { PlaylistTile } from './playlist-tile'
import { ellipsis, indexRow } from '~/client/ui/list-row'

type Summary = { id: string; name: string; owner: string; mine: boolean; public: boolean; songCount: number; duration: number }

function PlaylistRows({ playlists, label }: { playlists: Summary[]; label: string }) {
  return (
    <ul aria-label={label} className={stack({ gap: '1' })}>
      {playlists.map((p) => (
        <li key={p.id}>
          <Link to="/playlists/$id" params={{ id: p.id }} className={indexRow}>
            <PlaylistTile size="sm" />
            <span className={css({ display: 'flex', flexDirection: 'column', minW: 0, flex: '1' })}>
              <span className={cx(ellipsis, css({ fontWeight: 'semibold' }))}>{p.name}</span>
              <span className={cx(ellipsis, mutedText({ size: 'xs' }))}>
                {p.mine ? (p.public ? 'Public · ' : '') : `By ${p.owner} · `}
                {plural(p.songCount, 'song')}
                {p.duration > 0 ? ` · ${clock(p.duration)}` : ''}
              </span>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  )
}

export function PlaylistsPage() {
  const trpc = useTRPC()
  const playlists = useSuspenseQuery(trpc.playlists.list.queryOptions()).data
  const mine = playlists.filter((p) => p.mine)
  const shared = playlists.filter((p) => !p.mine)
  const [creating, setCreating] = useState(false)
  const fileInput = useRef<HTMLInputElement>(null)
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const importList = useMutation(
    trpc.playlists.m3u8.import.mutationOptions({
      onSuccess: ({ playlist, unmatched }) => {
        void queryClient.invalidateQueries({ queryKey: trpc.playlists.pathKey() })
        toast({
          title: `Imported ${playlist.name}: ${plural(playlist.songCount, 'song')}`,
          description:
            unmatched.length > 0
              ? `Not in the library (${unmatched.length}): ${unmatched.slice(0, 5).join(', ')}${unmatched.length > 5 ? '…' : ''}`
              : undefined,
          type: unmatched.length > 0 ? 'info' : 'success',
          duration: unmatched.length > 0 ? 15_000 : undefined,
        })
        void navigate({ to: '/playlists/$id', params: { id: playlist.id } })
      },
      onError: (e) => toast({ title: 'Could not import the playlist', description: errorMessage(e, 'An unexpected error occurred'), type: 'error' }),
    }),
  )

  async function pickFile(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0]
    e.target.value = ''
    if (!file) return
    const name = file.name.replace(/\.m3u8?$/i, '').slice(0, PLAYLIST_LIMITS.nameCharacters) || 'Imported playlist'
    importList.mutate({ name, m3u8: await file.text() })
  }

  return (
    <section className={stack({ gap: '6' })}>
      <header className={css({ display: 'flex', flexWrap: 'wrap', gap: '3', alignItems: 'center', justifyContent: 'space-between' })}>
        <h1 className={css({ fontSize: { base: '2xl', md: '3xl' }, fontWeight: 'bold' })}>Playlists</h1>
        <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
          <Button size="lg" onClick={() => setCreating(true)}>
            <Icon name="plus" size={18} /> New playlist
          </Button>
          <Button size="lg" variant="outline" onClick={() => fileInput.current?.click()} disabled={importList.isPending}>
            Import M3U8
          </Button>
          <input ref={fileInput} type="file" accept=".m3u,.m3u8,audio/x-mpegurl,application/vnd.apple.mpegurl" hidden onChange={pickFile} />
        </div>
      </header>
      {mine.length === 0 ? (
        <p className={css({ color: 'fg.muted', py: '6' })}>No playlists yet. Make one here, or pick “Add to playlist…” from any song’s ⋯ menu.</p>
      ) : (
        <PlaylistRows playlists={mine} label="Your playlists" />
      )}
      {shared.length > 0 && (
        <>
          <h2 className={css({ fontSize: 'lg', fontWeight: 'bold' })}>Shared by other members</h2>
          <PlaylistRows playlists={shared} label="Shared by other members" />
        </>
      )}
      <NewPlaylistDialog open={creating} onOpenChange={setCreating} />
    </section>
  )
}

function NewPlaylistDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const navigate = useNavigate()
  return (
    <PlaylistPicker
      open={open}
      onOpenChange={onOpenChange}
      title="New playlist"
      startNew
      tracks={{ trackIds: [] }}
      what=""
      onCreated={(p) => void navigate({ to: '/playlists/$id', params: { id: p.id } })}
    />
  )
}
