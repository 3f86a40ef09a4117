// The actions of one track, the same in every list (album, artist, songs, search, folder, charts,
// liked, playlists): a ⋯ button that opens Ark's Menu — Play now, Play next, Add to queue, Add to
// playlist… (members: the playlist picker), Like/Unlike, the member's 1–5 stars (picking the
// current one again clears it), Share link, Go to album, Go to artist. Mouse, touch (the button is 44 px) and keys (the button is in the tab order;
// the menu walks with the arrows, Enter picks, Escape closes and gives the focus back) all reach
// it; a list row opens it with the context-menu key or Shift+F10 too (openTrackMenu).
import { Menu } from '@ark-ui/react/menu'
import { Portal } from '@ark-ui/react/portal'
import { useNavigate } from '@tanstack/react-router'
import { type KeyboardEvent, type MouseEvent, useState } from 'react'
import { css } from 'styled-system/css'
import { useAuth } from '~/client/features/auth/auth-store'
import { PlaylistPicker } from '~/client/features/playlists/playlist-picker'
import { useLikes } from '~/client/features/player/use-likes'
import { RATING_MAX } from '~/shared/validators/library'
import { useRatings } from './use-ratings'
import { ShareDialog } from '~/client/features/shares/share-dialog'
import { Icon } from '~/client/ui/icon'
import { toast } from '~/client/ui/toaster'
import type { LibraryTrack } from '~/shared/library'
import { playNextTracks, playNow, queueTracks } from './play'

export const iconButton = css({
  display: 'grid',
  placeItems: 'center',
  w: '11',
  h: '11',
  flexShrink: 0,
  borderRadius: 'full',
  color: 'fg.muted',
  cursor: 'pointer',
  _hover: { bg: 'bg.subtle', color: 'fg.default' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent.default', outlineOffset: '-2px' },
  '&[data-state=open]': { bg: 'bg.subtle', color: 'fg.default' },
})
const menuContent = css({
  bg: 'bg.surface',
  borderWidth: '1px',
  borderColor: 'border.default',
  borderRadius: 'xl',
  boxShadow: 'xl',
  p: '1.5',
  minW: '52',
  zIndex: 50,
  outline: 'none',
})
const menuItem = css({
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  w: 'full',
  minH: { base: '11', md: '9' },
  px: '3',
  borderRadius: 'md',
  fontSize: 'sm',
  cursor: 'pointer',
  '&[data-highlighted]': { bg: 'bg.subtle' },
})
const separator = css({ my: '1', borderTopWidth: '1px', borderColor: 'border.default' })
const starRow = css({ display: 'flex', alignItems: 'center', gap: '0.5', px: '1' })
const starItem = css({
  display: 'grid',
  placeItems: 'center',
  w: '9',
  h: { base: '11', md: '9' },
  borderRadius: 'md',
  color: 'fg.muted',
  cursor: 'pointer',
  '&[data-highlighted]': { bg: 'bg.subtle', color: 'fg.default' },
  '&[data-on]': { color: 'accent.default' },
})

const TRIGGER = 'data-track-menu'

/**
 * A row's key and right-click handler: the context-menu key, Shift+F10 or a right click opens the
 * row's track menu (the row holds one TrackActions).
 */
export function openTrackMenu(e: KeyboardEvent<HTMLElement> | MouseEvent<HTMLElement>) {
  if ('key' in e && !(e.key === 'ContextMenu' || (e.shiftKey && e.key === 'F10'))) return
  const trigger = e.currentTarget.parentElement?.querySelector<HTMLButtonElement>(`[${TRIGGER}]`)
  if (!trigger) return
  e.preventDefault()
  trigger.focus()
  trigger.click()
}

/** The ⋯ menu of `track`; `label` names the list it plays in when played now. */
export function TrackActions({ track, label }: { track: LibraryTrack; label: string }) {
  // The picker and the share dialog outlive the menu, which unmounts its items as it closes.
  const [picking, setPicking] = useState(false)
  const [sharing, setSharing] = useState(false)
  return (
    <>
      <TrackMenu track={track} label={label} onAddToPlaylist={() => setPicking(true)} onShare={() => setSharing(true)} />
      {picking && <PlaylistPicker open onOpenChange={setPicking} tracks={{ trackIds: [track.id] }} what={track.title} />}
      <ShareDialog target={{ kind: 'track', id: track.id }} name={track.title} open={sharing} onOpenChange={setSharing} />
    </>
  )
}

type MenuProps = { track: LibraryTrack; label: string; onAddToPlaylist: () => void; onShare: () => void }

function TrackMenu({ track, label, onAddToPlaylist, onShare }: MenuProps) {
  return (
    <Menu.Root lazyMount unmountOnExit>
      <Menu.Trigger {...{ [TRIGGER]: '' }} aria-label={`More actions for ${track.title}`} className={iconButton}>
        <Icon name="more" />
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content className={menuContent}>
            <TrackMenuItems track={track} label={label} onAddToPlaylist={onAddToPlaylist} onShare={onShare} />
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  )
}

/** The items, mounted only while the menu is open (the likes are read then, not per row). */
function TrackMenuItems({ track, label, onAddToPlaylist, onShare }: MenuProps) {
  const navigate = useNavigate()
  const member = useAuth().isAuthenticated
  const { isLiked, setLiked } = useLikes()
  const { ratings, setRating } = useRatings()
  const liked = isLiked(track.title)
  const rating = ratings[track.id] ?? 0
  return (
    <>
      <Menu.Item value="play" className={menuItem} onSelect={() => playNow(track, label)}>
        <Icon name="play" size={16} /> Play now
      </Menu.Item>
      <Menu.Item
        value="next"
        className={menuItem}
        onSelect={() => {
          playNextTracks([track])
          toast({ title: 'Playing next', description: track.title, type: 'success' })
        }}
      >
        <Icon name="next" size={16} /> Play next
      </Menu.Item>
      <Menu.Item
        value="queue"
        className={menuItem}
        onSelect={() => {
          queueTracks([track])
          toast({ title: 'Added to queue', description: track.title, type: 'success' })
        }}
      >
        <Icon name="list" size={16} /> Add to queue
      </Menu.Item>
      {member && (
        <Menu.Item value="playlist" className={menuItem} onSelect={onAddToPlaylist}>
          <Icon name="playlist" size={16} /> Add to playlist…
        </Menu.Item>
      )}
      <Menu.Item value="like" className={menuItem} onSelect={() => setLiked(track.title, !liked, track.url)}>
        <Icon name="heart" size={16} filled={liked} /> {liked ? 'Unlike' : 'Like'}
      </Menu.Item>
      {member && (
        <Menu.ItemGroup id="rating" aria-label={rating ? `Your rating: ${rating} of ${RATING_MAX} stars` : 'Your rating: none'}>
          <div className={starRow}>
            {Array.from({ length: RATING_MAX }, (_, i) => i + 1).map((stars) => (
              <Menu.Item
                key={stars}
                value={`rate-${stars}`}
                className={starItem}
                data-on={stars <= rating ? '' : undefined}
                aria-label={stars === rating ? `Clear rating (${stars} ${stars === 1 ? 'star' : 'stars'})` : `Rate ${stars} ${stars === 1 ? 'star' : 'stars'}`}
                onSelect={() => setRating(track.id, stars === rating ? 0 : stars)}
              >
                <Icon name="star" size={18} filled={stars <= rating} />
              </Menu.Item>
            ))}
          </div>
        </Menu.ItemGroup>
      )}
      {member && (
        <Menu.Item value="share" className={menuItem} onSelect={onShare}>
          <Icon name="share" size={16} /> Share link
        </Menu.Item>
      )}
      <hr className={separator} />
      <Menu.Item value="album" className={menuItem} onSelect={() => navigate({ to: '/library/albums/$id', params: { id: track.albumId } })}>
        <Icon name="disc" size={16} /> Go to album
      </Menu.Item>
      <Menu.Item value="artist" className={menuItem} onSelect={() => navigate({ to: '/library/artists/$id', params: { id: track.artistId } })}>
        <Icon name="user" size={16} /> Go to artist
      </Menu.Item>
    </>
  )
}
