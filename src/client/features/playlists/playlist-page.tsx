// /playlists/$id: one playlist. Play all / Shuffle hand its available tracks to the one player;
// a row plays the list from there. The owner also edits it: rename, describe and make public,
// delete, reorder by dragging a row's grip or with ↑/↓ on the grip, remove a row; anyone who
// sees it may export it as M3U8 or download it for offline. The row of the track the player has current is marked, as in
// every library list. An entry whose file has left the library stays in its place, dimmed and
// marked unavailable.
// The songs are the app's fixed-row-height virtual list (a playlist holds up to 10,000), so a drag
// is plain pointer events on the grip, as in the queue: the drop place is the row under the
// pointer (decision 072).
// The page opens on the playlist's header and first rows (the server render carries them) and
// loads the whole list beside them; Play all, Shuffle or a row clicked before it is there waits
// for it, so they always play the whole playlist (decision 087).
import { useMutation, useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { type FormEvent, type KeyboardEvent, type PointerEvent as ReactPointerEvent, Suspense, useEffect, useRef, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import { backLink } from '~/client/features/library/album-page'
import { TabSpinner } from '~/client/features/library/browse'
import { DownloadButton } from '~/client/features/offline/download-button'
import { ShareDialog } from '~/client/features/shares/share-dialog'
import { clock, plural } from '~/client/features/library/format'
import { playTracks, queueTracks, shuffleTracks } from '~/client/features/library/play'
import { iconButton, TrackActions } from '~/client/features/library/track-actions'
import { useCurrentTrackId } from '~/client/features/library/track-list'
import { player } from '~/client/features/player/player-store'
import { trackIdOf } from '~/client/features/player/track-identity'
import { UnavailableMark } from '~/client/features/player/unavailable-mark'
import { useRowDrag, VirtualList } from '~/client/features/player/virtual-list'
import { errorMessage } from '~/client/global-errors'
import { useTRPC } from '~/client/trpc'
import { ConfirmDialog } from '~/client/ui/confirm-dialog'
import { Button } from '~/client/ui/button'
import { Icon } from '~/client/ui/icon'
import { Modal } from '~/client/ui/modal'
import { Switch } from '~/client/ui/switch'
import { mutedText } from '~/client/ui/text'
import { TextField } from '~/client/ui/text-field'
import { toast } from '~/client/ui/toaster'
import type { LibraryTrack } from '~/shared/library'
import { PLAYLIST_LIMITS } from '~/shared/validators/playlists'
import { PlaylistTile } from './playlist-tile'
import { ellipsis, entryRow } from '~/client/ui/list-row'

type Entry = { id: number; index: number; title: string; artist: string; duration: number; track?: LibraryTrack }

/** A secondary button at the 44 px a finger needs. */
const tall = css({ minH: '11' })
const grip = cx(iconButton, css({ cursor: 'grab', touchAction: 'none' }))
/** Row height of the virtual list (px): a two-line title beside 44 px buttons. */
const ROW = 56

export function PlaylistPage({ id }: { id: string }) {
  const trpc = useTRPC()
  // Outside the Suspense: the whole list is asked for as the page mounts, not after the opening.
  const whole = useQuery(trpc.playlists.byId.queryOptions({ id })).data
  return (
    <Suspense fallback={<TabSpinner />}>
      <PlaylistView id={id} whole={whole} />
    </Suspense>
  )
}

const withTracks = (list: Entry[]) => list.filter((e): e is Entry & { track: LibraryTrack } => e.track !== undefined)

function PlaylistView({ id, whole }: { id: string; whole: { entries: Entry[] } | undefined }) {
  const trpc = useTRPC()
  const opening = useSuspenseQuery(trpc.playlists.opening.queryOptions({ id })).data
  const playlist = whole ? { ...opening, ...whole } : opening
  const queryClient = useQueryClient()
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.playlists.pathKey() })
  const [editing, setEditing] = useState(false)
  const [deleting, setDeleting] = useState(false)
  const [sharing, setSharing] = useState(false)
  const onError = (title: string) => (e: unknown) => {
    toast({ title, description: errorMessage(e, 'An unexpected error occurred'), type: 'error' })
    void refresh()
  }
  const move = useMutation(trpc.playlists.tracks.move.mutationOptions({ onSettled: refresh, onError: onError('Could not move the song') }))
  const remove = useMutation(trpc.playlists.tracks.remove.mutationOptions({ onSettled: refresh, onError: onError('Could not remove the song') }))
  const exportList = useMutation({
    mutationFn: () => queryClient.fetchQuery(trpc.playlists.m3u8.export.queryOptions({ id }, { staleTime: 0 })),
    onSuccess: ({ name, m3u8 }) => download(`${name}.m3u8`, m3u8),
    onError: onError('Could not export the playlist'),
  })

  const current = useCurrentTrackId()
  const [announcement, setAnnouncement] = useState('')
  const [entries, setEntries] = useState<Entry[]>(playlist.entries)
  // The server's list wins once no change is on its way.
  useEffect(() => {
    if (!move.isPending && !remove.isPending) setEntries(playlist.entries)
  }, [playlist.entries, move.isPending, remove.isPending])
  const listBox = useRef<HTMLDivElement>(null)
  /** The row to keep in view after a keyboard move (the virtual list scrolls to it). */
  const [keepInView, setKeepInView] = useState(-1)

  // Pointer drag on a row's grip: the drop place is the row under the pointer (rows are ROW px
  // tall); the list scrolls when the pointer nears its edges; pointercancel drops nothing.
  const rowDrag = useRowDrag(listBox, ROW, entries.length, (from, to) => {
    if (to !== from) moveBy(from, to, false)
  })
  const drag = rowDrag.drag
  const startDrag = (e: ReactPointerEvent, from: number) => {
    if (playlist.mine) rowDrag.startDrag(e, from)
  }

  function moveBy(from: number, to: number, refocus: boolean) {
    if (to < 0 || to >= entries.length) return
    const next = [...entries]
    const [moved] = next.splice(from, 1)
    next.splice(to, 0, moved)
    setEntries(next)
    move.mutate({ id, from, to })
    setAnnouncement(`${moved.title} moved to position ${to + 1} of ${next.length}`)
    if (!refocus) return
    setKeepInView(to)
    requestAnimationFrame(() => listBox.current?.querySelector<HTMLElement>(`[data-entry-id="${moved.id}"] [data-drag-handle]`)?.focus())
  }

  function removeAt(index: number) {
    const gone = entries[index]
    setEntries(entries.filter((_, i) => i !== index))
    remove.mutate({ id, indexes: [index] })
    setAnnouncement(`${gone.title} removed`)
  }

  const playable = withTracks(entries)
  const songs = whole ? entries.length : opening.songCount
  const missing = whole ? entries.length - playable.length : opening.unavailable
  /**
   * Plays the whole playlist in order from `how.from` (or its first song), or shuffled. In order,
   * it starts at once from the rows at hand; if only the opening is here, the rest joins the end of
   * the queue when it comes (unless the queue was changed meanwhile). Shuffled waits for it all.
   */
  async function play(how: { from: Entry } | 'in order' | 'shuffled') {
    const wholeList = trpc.playlists.byId.queryOptions({ id })
    // A failed load is reported by the app's query error handler.
    const load = () =>
      queryClient.fetchQuery(wholeList).then(
        (p) => withTracks(p.entries),
        () => null,
      )
    if (how === 'shuffled') {
      const all = whole ? playable : await load()
      if (all)
        shuffleTracks(
          all.map((e) => e.track),
          playlist.name,
        )
      return
    }
    const at = (list: typeof playable) =>
      how === 'in order'
        ? 0
        : Math.max(
            0,
            list.findIndex((e) => e.id === how.from.id),
          )
    if (whole || playable.length === 0) {
      const all = whole ? playable : await load()
      if (all)
        playTracks(
          all.map((e) => e.track),
          playlist.name,
          at(all),
        )
      return
    }
    playTracks(
      playable.map((e) => e.track),
      playlist.name,
      at(playable),
    )
    const queued = () =>
      player()
        .get()
        .engine.tracks.map((t) => t.url)
        .join('\n')
    const started = queued()
    const all = await load()
    if (all && queued() === started) queueTracks(all.filter((e) => e.index >= opening.entries.length).map((e) => e.track))
  }

  return (
    <section className={stack({ gap: '6' })}>
      <Link to="/playlists" className={backLink}>
        ← Playlists
      </Link>
      <header className={css({ display: 'flex', flexDirection: { base: 'column', sm: 'row' }, gap: { base: '4', md: '8' }, alignItems: { sm: 'flex-end' } })}>
        <PlaylistTile size="lg" />
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '2', minW: 0 })}>
          <p className={css({ fontSize: 'xs', textTransform: 'uppercase', letterSpacing: 'wider', color: 'fg.muted' })}>
            {playlist.public ? 'Public playlist' : 'Playlist'}
            {playlist.mine ? '' : ` · by ${playlist.owner}`}
          </p>
          <h1 className={css({ fontSize: { base: '2xl', md: '4xl' }, fontWeight: 'extrabold', lineHeight: 'tight', wordBreak: 'break-word' })}>
            {playlist.name}
          </h1>
          {playlist.comment && <p className={css({ color: 'fg.muted' })}>{playlist.comment}</p>}
          <p className={mutedText()}>
            {plural(songs, 'song')}
            {playlist.duration > 0 ? ` · ${clock(playlist.duration)}` : ''}
            {missing > 0 ? ` · ${missing} unavailable` : ''}
          </p>
          <div className={css({ display: 'flex', gap: '3', mt: '2', flexWrap: 'wrap' })}>
            <Button size="lg" disabled={songs === missing} onClick={() => play('in order')}>
              <Icon name="play" size={18} /> Play all
            </Button>
            <Button size="lg" variant="outline" disabled={songs === missing} onClick={() => play('shuffled')}>
              <Icon name="shuffle" size={18} /> Shuffle
            </Button>
            {/* Offered once the whole list is at hand: it stores every song. */}
            {whole && <DownloadButton target={{ kind: 'playlist', id: playlist.id, name: playlist.name }} tracks={playable.map((e) => e.track)} />}
          </div>
          <div className={css({ display: 'flex', gap: '1', flexWrap: 'wrap', ml: '-3' })}>
            {playlist.mine && (
              <Button variant="ghost" className={tall} onClick={() => setEditing(true)}>
                Edit
              </Button>
            )}
            {/* Only the owner may share a playlist as a link; a public one of another member is theirs to share. */}
            {playlist.mine && (
              <Button variant="ghost" className={tall} onClick={() => setSharing(true)}>
                Share link
              </Button>
            )}
            <Button variant="ghost" className={tall} onClick={() => exportList.mutate()} disabled={exportList.isPending}>
              Export M3U8
            </Button>
            {playlist.mine && (
              <Button variant="ghost" className={tall} onClick={() => setDeleting(true)}>
                Delete
              </Button>
            )}
          </div>
          {playlist.mine && <ShareDialog target={{ kind: 'playlist', id: playlist.id }} name={playlist.name} open={sharing} onOpenChange={setSharing} />}
        </div>
      </header>
      <p aria-live="polite" className={css({ srOnly: true })}>
        {announcement}
      </p>
      {playlist.mine && (
        <p id="playlist-reorder-help" className={css({ srOnly: true })}>
          Drag the grip to reorder, or focus it and press the up and down arrow keys.
        </p>
      )}
      {entries.length === 0 && <p className={css({ color: 'fg.muted', py: '6' })}>No songs yet. Pick “Add to playlist…” from any song’s ⋯ menu.</p>}
      {entries.length > 0 && (
        <div ref={listBox}>
          <VirtualList
            items={entries}
            rowHeight={ROW}
            maxHeight="70vh"
            activeIndex={keepInView}
            label="Songs"
            renderRow={(entry, index) => (
              <div
                data-entry-id={entry.id}
                data-dragging={drag?.from === index || undefined}
                data-drop={drag && drag.to === index && drag.from !== index ? (drag.to < drag.from ? 'before' : 'after') : undefined}
                className={css({
                  display: 'flex',
                  alignItems: 'center',
                  gap: '1',
                  h: 'full',
                  '&[data-dragging]': { opacity: 0.5 },
                  '&[data-drop=before]': { boxShadow: 'inset 0 2px 0 0 {colors.accent.default}' },
                  '&[data-drop=after]': { boxShadow: 'inset 0 -2px 0 0 {colors.accent.default}' },
                })}
              >
                {playlist.mine && (
                  <button
                    type="button"
                    data-drag-handle
                    className={grip}
                    aria-label={`Move ${entry.title}`}
                    aria-describedby="playlist-reorder-help"
                    onPointerDown={(e) => startDrag(e, index)}
                    onKeyDown={(e: KeyboardEvent) => {
                      if (e.key !== 'ArrowUp' && e.key !== 'ArrowDown') return
                      e.preventDefault()
                      moveBy(index, e.key === 'ArrowUp' ? index - 1 : index + 1, true)
                    }}
                  >
                    <Icon name="grip" size={16} />
                  </button>
                )}
                <button
                  type="button"
                  className={entryRow}
                  disabled={!entry.track}
                  aria-current={entry.track && current !== null && trackIdOf(entry.track.url) === current ? 'true' : undefined}
                  onClick={() => play({ from: entry })}
                >
                  <span
                    aria-hidden
                    className={css({ w: '7', flexShrink: 0, textAlign: 'right', color: 'fg.subtle', fontSize: 'sm', fontVariantNumeric: 'tabular-nums' })}
                  >
                    {index + 1}
                  </span>
                  <span className={css({ display: 'flex', flexDirection: 'column', minW: 0, flex: '1' })}>
                    <span className={ellipsis}>{entry.title}</span>
                    <span className={cx(ellipsis, mutedText({ size: 'xs' }))}>
                      {entry.artist || 'Unknown Artist'}
                      {entry.track?.album ? ` · ${entry.track.album}` : ''}
                    </span>
                  </span>
                  <UnavailableMark reason={entry.track ? entry.track.unavailable : 'Not in the library any more'} />
                  <span aria-hidden className={css({ fontSize: 'sm', color: 'fg.muted', fontVariantNumeric: 'tabular-nums' })}>
                    {entry.duration ? clock(entry.duration) : ''}
                  </span>
                </button>
                {playlist.mine && (
                  <button type="button" className={iconButton} aria-label={`Remove ${entry.title} from the playlist`} onClick={() => removeAt(index)}>
                    <Icon name="close" size={16} />
                  </button>
                )}
                {entry.track && <TrackActions track={entry.track} label={playlist.name} />}
              </div>
            )}
          />
        </div>
      )}
      {playlist.mine && <EditDialog key={String(editing)} open={editing} onOpenChange={setEditing} playlist={playlist} />}
      {playlist.mine && <DeleteDialog open={deleting} onOpenChange={setDeleting} playlist={playlist} />}
    </section>
  )
}

/** Saves text as a file the browser downloads. */
function download(fileName: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'audio/x-mpegurl' }))
  const a = document.createElement('a')
  a.href = url
  a.download = fileName.replace(/[\\/:*?"<>|]/g, '_')
  a.click()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}

type Editable = { id: string; name: string; comment: string; public: boolean }

function EditDialog({ open, onOpenChange, playlist }: { open: boolean; onOpenChange: (open: boolean) => void; playlist: Editable }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const [name, setName] = useState(playlist.name)
  const [comment, setComment] = useState(playlist.comment)
  const [isPublic, setPublic] = useState(playlist.public)
  const [error, setError] = useState<string>()
  const update = useMutation(
    trpc.playlists.update.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.playlists.pathKey() })
        onOpenChange(false)
      },
      onError: (e) => setError(errorMessage(e, 'An unexpected error occurred')),
    }),
  )
  function submit(e: FormEvent) {
    e.preventDefault()
    if (!name.trim()) return setError('Playlist name is required')
    update.mutate({ id: playlist.id, name, comment, public: isPublic })
  }
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Edit playlist" busy={update.isPending}>
      <form onSubmit={submit} className={stack({ gap: '4' })}>
        <TextField label="Name" value={name} onValueChange={setName} error={error} maxLength={PLAYLIST_LIMITS.nameCharacters} autoFocus />
        <TextField label="Description" value={comment} onValueChange={setComment} maxLength={PLAYLIST_LIMITS.commentCharacters} multiline />
        <Switch label="Public: other members may see and play it" checked={isPublic} onCheckedChange={setPublic} />
        <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '2' })}>
          <Button variant="ghost" onClick={() => onOpenChange(false)} disabled={update.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={update.isPending}>
            Save
          </Button>
        </div>
      </form>
    </Modal>
  )
}

function DeleteDialog({ open, onOpenChange, playlist }: { open: boolean; onOpenChange: (open: boolean) => void; playlist: Editable }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const remove = useMutation(
    trpc.playlists.delete.mutationOptions({
      onSuccess: async () => {
        await navigate({ to: '/playlists' })
        void queryClient.invalidateQueries({ queryKey: trpc.playlists.pathKey() })
        toast({ title: `Deleted ${playlist.name}`, type: 'success' })
      },
      onError: (e) => toast({ title: 'Could not delete the playlist', description: errorMessage(e, 'An unexpected error occurred'), type: 'error' }),
    }),
  )
  return (
    <ConfirmDialog
      open={open}
      onCancel={() => onOpenChange(false)}
      onConfirm={() => remove.mutate({ id: playlist.id })}
      busy={remove.isPending}
      title="Delete playlist?"
      description={`“${playlist.name}” goes for good. The songs stay in the library.`}
    />
  )
}
