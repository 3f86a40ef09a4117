// "Add to playlist": a dialog listing the member's own playlists (a tap adds the tracks at the
// end) with "New playlist…" first, which names a new one made with the tracks. The track menu
// sends library track ids; the queue drawer's "Save queue as playlist" sends the player's URLs
// (the server maps /media/ URLs to library files; it refuses any other URL, so only those are sent).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import { errorMessage } from '~/client/global-errors'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { Icon } from '~/client/ui/icon'
import { listChoice } from '~/client/ui/list-choice'
import { Modal } from '~/client/ui/modal'
import { Spinner } from '~/client/ui/spinner'
import { mutedText } from '~/client/ui/text'
import { TextField } from '~/client/ui/text-field'
import { toast } from '~/client/ui/toaster'
import { plural } from '~/client/features/library/format'
import { PLAYLIST_LIMITS } from '~/shared/validators/playlists'

export type PickedTracks = { trackIds: string[] } | { trackUrls: string[] }

const choice = cx(listChoice, css({ gap: '3' }))

type Props = {
  open: boolean
  onOpenChange: (open: boolean) => void
  tracks: PickedTracks
  /** What is being added, for the dialog's line and the toast ("Anchor", "12 tracks"). */
  what: string
  /** Open straight on the new playlist's name (Save queue as playlist). */
  startNew?: boolean
  defaultName?: string
  title?: string
  /** After a new playlist is made (the Playlists page opens it). */
  onCreated?: (playlist: { id: string; name: string }) => void
}

export function PlaylistPicker({ open, onOpenChange, title, ...body }: Props) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={title ?? (body.startNew ? 'Save as playlist' : 'Add to playlist')}
      description={body.what || undefined}
    >
      {open && <PickerBody {...body} close={() => onOpenChange(false)} />}
    </Modal>
  )
}

function PickerBody({ tracks, what, startNew, defaultName = '', onCreated, close }: Omit<Props, 'open' | 'onOpenChange' | 'title'> & { close: () => void }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const list = useQuery(trpc.playlists.list.queryOptions())
  const [naming, setNaming] = useState(startNew === true)
  const [name, setName] = useState(defaultName)
  const [error, setError] = useState<string>()
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.playlists.pathKey() })
  const add = useMutation(
    trpc.playlists.tracks.add.mutationOptions({
      onSuccess: (p) => {
        void refresh()
        toast({ title: `Added to ${p.name}`, description: what, type: 'success' })
        close()
      },
      onError: (e) => toast({ title: 'Could not add to the playlist', description: errorMessage(e, 'An unexpected error occurred'), type: 'error' }),
    }),
  )
  const create = useMutation(
    trpc.playlists.create.mutationOptions({
      onSuccess: (p) => {
        void refresh()
        if (p.songCount > 0) toast({ title: `Saved to ${p.name}`, description: what, type: 'success' })
        close()
        onCreated?.(p)
      },
      onError: (e) => setError(errorMessage(e, 'An unexpected error occurred')),
    }),
  )
  const busy = add.isPending || create.isPending

  function submitNew(e: FormEvent) {
    e.preventDefault()
    if (!name.trim()) return setError('Playlist name is required')
    create.mutate({ name, ...tracks })
  }

  if (naming)
    return (
      <form onSubmit={submitNew} className={stack({ gap: '4' })}>
        <TextField
          label="Playlist name"
          value={name}
          onValueChange={(v) => {
            setName(v)
            setError(undefined)
          }}
          error={error}
          maxLength={PLAYLIST_LIMITS.nameCharacters}
          autoFocus
        />
        <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '2' })}>
          <Button variant="ghost" onClick={() => (startNew ? close() : setNaming(false))} disabled={busy}>
            {startNew ? 'Cancel' : 'Back'}
          </Button>
          <Button type="submit" disabled={busy}>
            Create playlist
          </Button>
        </div>
      </form>
    )

  const mine = (list.data ?? []).filter((p) => p.mine)
  return (
    <div className={stack({ gap: '1' })}>
      <button type="button" className={choice} onClick={() => setNaming(true)} disabled={busy}>
        <Icon name="plus" size={18} /> New playlist…
      </button>
      {list.isPending ? (
        <Spinner />
      ) : (
        <ul aria-label="Your playlists" className={css({ maxH: '60vh', overflowY: 'auto' })}>
          {mine.map((p) => (
            <li key={p.id}>
              <button
                type="button"
                className={choice}
                disabled={busy}
                onClick={() => add.mutate({ id: p.id, ...('trackIds' in tracks ? { trackIds: tracks.trackIds } : { trackUrls: tracks.trackUrls }) })}
              >
                <Icon name="playlist" size={18} />
                <span className={css({ flex: '1', minW: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' })}>{p.name}</span>
                <span className={mutedText({ size: 'xs' })}>{plural(p.songCount, 'song')}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className={css({ display: 'flex', justifyContent: 'flex-end', mt: '2' })}>
        <Button variant="ghost" onClick={close}>
          Cancel
        </Button>
      </div>
    </div>
  )
}
