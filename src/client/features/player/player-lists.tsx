// The "Up Next" queue (title, artist, duration or 0:00, video icon; at most 30% of the viewport,
// virtualised; in play order, with queue edits) and the simple playlist panel (title, artist, a
// "Video" badge, "Play next" and "Add to queue").
// Dragging a row's grip reorders with the mouse or a finger: plain pointer events on the fixed-height
// virtual rows (a drop position is the pointer's row), not a drag-and-drop library, whose DOM-order
// model does not fit rows that come and go as the list scrolls (decision 026).
import { Menu } from '@ark-ui/react/menu'
import { Portal } from '@ark-ui/react/portal'
import { useRef, useState } from 'react'
import { css, cx } from 'styled-system/css'
import { displayTitle, formatTime, isVideo as isVideoTrack, type Track } from '~/shared/player/track'
import { Icon, type IconName } from '~/client/ui/icon'
import { UnavailableMark } from './unavailable-mark'
import { useRowDrag, VirtualList } from './virtual-list'
import { plural } from '~/shared/plural'
import { card } from '~/client/ui/card'

const ROW = 56

const row = css({
  w: 'full',
  minW: '0',
  h: 'full',
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  px: '3',
  textAlign: 'left',
  borderRadius: 'lg',
  cursor: 'pointer',
  _hover: { bg: 'bg.subtle' },
  '&[aria-current=true]': { bg: 'accent.muted' },
})

type VideoRule = (t: Track) => boolean

export type QueueActions = {
  /** Moves the track at play-order position `from` to `to`. */
  reorder: (from: number, to: number) => void
  remove: (trackIndex: number) => void
  clear: () => void
}

const rowAction = css({
  w: '7',
  h: '7',
  flexShrink: 0,
  display: 'grid',
  placeItems: 'center',
  borderRadius: 'md',
  color: 'fg.muted',
  cursor: 'pointer',
  _hover: { _enabled: { bg: 'bg.muted', color: 'fg.default' } },
  _disabled: { opacity: 0.3, cursor: 'not-allowed' },
})

// Phones fold a row's actions into one 44 px menu button; wider screens show them inline.
const inlineActions = css({ display: { base: 'none', md: 'flex' }, alignItems: 'center', gap: '1' })
const rowMenuButton = css({
  display: { base: 'grid', md: 'none' },
  placeItems: 'center',
  w: '11',
  h: '11',
  flexShrink: 0,
  borderRadius: 'md',
  color: 'fg.muted',
  cursor: 'pointer',
  _hover: { bg: 'bg.muted', color: 'fg.default' },
})
const rowMenuContent = css({
  bg: 'bg.surface',
  borderWidth: '1px',
  borderColor: 'border.default',
  borderRadius: 'xl',
  boxShadow: 'xl',
  p: '1.5',
  minW: '48',
  zIndex: 50,
  outline: 'none',
})
const rowMenuItem = css({
  display: 'flex',
  alignItems: 'center',
  minH: '11',
  px: '3',
  borderRadius: 'md',
  fontSize: 'sm',
  cursor: 'pointer',
  '&[data-highlighted]': { bg: 'bg.subtle' },
  '&[data-disabled]': { opacity: 0.4, cursor: 'not-allowed' },
})
const dragGrip = css({
  w: '7',
  h: 'full',
  flexShrink: 0,
  display: 'grid',
  placeItems: 'center',
  color: 'fg.subtle',
  cursor: 'grab',
  touchAction: 'none',
  _hover: { color: 'fg.default' },
})

type RowCommand = { value: string; label: string; icon: IconName; disabled?: boolean; run: () => void }

/**
 * A queue row's actions: inline buttons on wide screens, one "Track actions" menu on phones (its
 * name leaves the title out, like the buttons', so a row's own button stays the one named by it;
 * the title describes it).
 */
function RowActions({ describedBy, commands }: { describedBy: string; commands: RowCommand[] }) {
  return (
    <>
      <div className={inlineActions}>
        {commands.map((c) => (
          <RowAction key={c.value} label={c.label} icon={c.icon} describedBy={describedBy} disabled={c.disabled} onClick={c.run} />
        ))}
      </div>
      <Menu.Root lazyMount unmountOnExit onSelect={({ value }) => commands.find((c) => c.value === value)?.run()}>
        <Menu.Trigger aria-label="Track actions" aria-describedby={describedBy} className={rowMenuButton}>
          <Icon name="more" size={20} />
        </Menu.Trigger>
        <Portal>
          <Menu.Positioner>
            <Menu.Content className={rowMenuContent}>
              {commands.map((c) => (
                <Menu.Item key={c.value} value={c.value} disabled={c.disabled} className={rowMenuItem}>
                  {c.label}
                </Menu.Item>
              ))}
            </Menu.Content>
          </Menu.Positioner>
        </Portal>
      </Menu.Root>
    </>
  )
}

function RowAction({
  label,
  icon,
  describedBy,
  onClick,
  disabled,
}: {
  label: string
  icon: IconName
  describedBy: string
  onClick: () => void
  disabled?: boolean
}) {
  return (
    <button type="button" aria-label={label} title={label} aria-describedby={describedBy} disabled={disabled} onClick={onClick} className={rowAction}>
      <Icon name={icon} size={16} />
    </button>
  )
}

/**
 * "Up Next": the queue in play order (the engine's order), the current track marked. Each row
 * plays on click or Enter; its buttons play it next, move it and remove it, and Alt+ArrowUp/Down
 * on a focused row moves it too (announced, the focus follows the track).
 */
export function TrackList({
  tracks,
  order,
  activeIndex,
  playing,
  isLiked,
  onSelect,
  queue,
  isVideo = isVideoTrack,
  ids = { heading: 'up-next', row: 'queue-row' },
  maxHeight = '30vh',
}: {
  tracks: readonly Track[]
  order: readonly number[]
  activeIndex: number
  playing: boolean
  isLiked: (title: string) => boolean
  onSelect: (i: number) => void
  queue: QueueActions
  isVideo?: VideoRule
  /** Element ids, distinct for each copy on the page (the queue drawer's and the full player's). */
  ids?: { heading: string; row: string }
  /** 30 % of the viewport on the player screen; the drawer has room for more. */
  maxHeight?: string
}) {
  const [said, say] = useState('')
  const listBox = useRef<HTMLDivElement>(null)
  const currentPos = order.indexOf(activeIndex)
  const rows = order.length === tracks.length ? order : tracks.map((_, i) => i)

  function move(from: number, to: number, refocus: boolean) {
    if (to < 0 || to >= rows.length || from === to) return
    const title = displayTitle(tracks[rows[from]])
    queue.reorder(from, to)
    say(`Moved ${title} to position ${to + 1} of ${rows.length}`)
    if (refocus) requestAnimationFrame(() => listBox.current?.querySelector<HTMLElement>(`[data-queue-pos="${to}"]`)?.focus())
  }

  /** "Play next": right after the current track in play order. */
  const playNext = (pos: number) => move(pos, pos > currentPos ? currentPos + 1 : currentPos, false)

  // Pointer drag on a row's grip: the drop position is the row under the pointer (rows are ROW px
  // tall), the list scrolls when the pointer nears its edges, Escape-free cancel is pointercancel.
  const { drag, startDrag } = useRowDrag(listBox, ROW, rows.length, (from, to) => move(from, to, false))

  return (
    <section aria-labelledby={ids.heading} className={card({ size: 'list' })}>
      <div className={css({ display: 'flex', alignItems: 'center', gap: '3', px: '1', mb: '2' })}>
        <h2 id={ids.heading} className={css({ fontWeight: 'bold' })}>
          Up Next
        </h2>
        <span data-testid="track-count" className={css({ fontSize: 'xs', color: 'fg.muted', flex: '1' })}>
          {plural(tracks.length, 'track')}
        </span>
        {tracks.length > 0 && (
          <button
            type="button"
            onClick={() => {
              queue.clear()
              say('Queue cleared')
            }}
            className={css({
              fontSize: 'xs',
              color: 'fg.muted',
              px: '2',
              h: '7',
              borderRadius: 'md',
              cursor: 'pointer',
              _hover: { bg: 'bg.subtle', color: 'fg.default' },
            })}
          >
            Clear queue
          </button>
        )}
      </div>
      <p aria-live="polite" data-testid="queue-announcement" className={css({ srOnly: true })}>
        {said}
      </p>
      {tracks.length === 0 ? (
        <p className={css({ px: '1', py: '6', textAlign: 'center', fontSize: 'sm', color: 'fg.muted' })}>
          No tracks yet. Pick a folder of music or videos to fill the playlist.
        </p>
      ) : (
        <div ref={listBox}>
          <VirtualList
            items={rows}
            rowHeight={ROW}
            maxHeight={maxHeight}
            activeIndex={currentPos}
            label="Track list"
            className={css({ minH: '28' })}
            renderRow={(i, pos) => {
              const t = tracks[i]
              const title = displayTitle(t)
              const active = i === activeIndex
              const titleId = `${ids.row}-${pos}`
              return (
                <div
                  data-dragging={drag?.from === pos || undefined}
                  data-drop={drag && drag.to === pos && drag.from !== pos ? (drag.to < drag.from ? 'before' : 'after') : undefined}
                  className={css({
                    display: 'flex',
                    alignItems: 'center',
                    gap: '1',
                    h: 'full',
                    pr: '1',
                    '&[data-dragging]': { opacity: 0.5 },
                    '&[data-drop=before]': { boxShadow: 'inset 0 2px 0 0 {colors.accent.default}' },
                    '&[data-drop=after]': { boxShadow: 'inset 0 -2px 0 0 {colors.accent.default}' },
                  })}
                >
                  <span aria-hidden title="Drag to reorder" data-drag-handle className={dragGrip} onPointerDown={(e) => startDrag(e, pos)}>
                    <Icon name="grip" size={16} />
                  </span>
                  <button
                    type="button"
                    className={row}
                    aria-current={active}
                    data-queue-pos={pos}
                    onClick={() => onSelect(i)}
                    onKeyDown={(e) => {
                      if (!e.altKey || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return
                      e.preventDefault()
                      move(pos, e.key === 'ArrowUp' ? pos - 1 : pos + 1, true)
                    }}
                    title={title}
                  >
                    <span
                      className={css({
                        w: '6',
                        flexShrink: 0,
                        textAlign: 'right',
                        fontSize: 'xs',
                        color: active ? 'accent.text' : 'fg.subtle',
                        fontVariantNumeric: 'tabular-nums',
                      })}
                      aria-hidden
                    >
                      {active && playing ? '▶' : pos + 1}
                    </span>
                    <span className={css({ flex: '1', minW: 0 })}>
                      <span
                        className={cx(
                          css({ display: 'flex', alignItems: 'center', gap: '1.5', fontSize: 'sm', fontWeight: 'medium' }),
                          active ? css({ color: 'accent.text' }) : undefined,
                        )}
                      >
                        {isVideo(t) && <Icon name="video" size={14} aria-label="Video" role="img" aria-hidden={false} />}
                        <span id={titleId} className={css({ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' })}>
                          {title}
                        </span>
                        {isLiked(title) && (
                          <span role="img" aria-label="Liked" className={css({ color: 'accent.pink', fontSize: 'xs' })}>
                            ♥
                          </span>
                        )}
                        <UnavailableMark reason={t.unavailable} />
                      </span>
                      <span
                        className={css({
                          display: 'block',
                          fontSize: 'xs',
                          color: 'fg.muted',
                          overflow: 'hidden',
                          textOverflow: 'ellipsis',
                          whiteSpace: 'nowrap',
                        })}
                      >
                        {t.artist || 'Unknown Artist'}
                      </span>
                    </span>
                    <span className={css({ fontSize: 'xs', color: 'fg.muted', fontVariantNumeric: 'tabular-nums' })}>{formatTime(t.duration)}</span>
                  </button>
                  <RowActions
                    describedBy={titleId}
                    commands={[
                      { value: 'next', label: 'Play next', icon: 'next', disabled: active || pos === currentPos + 1, run: () => playNext(pos) },
                      { value: 'up', label: 'Move up', icon: 'up', disabled: pos === 0, run: () => move(pos, pos - 1, false) },
                      { value: 'down', label: 'Move down', icon: 'down', disabled: pos === rows.length - 1, run: () => move(pos, pos + 1, false) },
                      {
                        value: 'remove',
                        label: 'Remove from queue',
                        icon: 'close',
                        run: () => {
                          queue.remove(i)
                          say(`Removed ${title}`)
                        },
                      },
                    ]}
                  />
                </div>
              )
            }}
          />
        </div>
      )}
    </section>
  )
}

export function SimplePlaylist({
  tracks,
  activeIndex,
  onSelect,
  onPlayNext,
  onAddToQueue,
  isVideo = isVideoTrack,
}: {
  tracks: readonly Track[]
  activeIndex: number
  onSelect: (i: number) => void
  /** A copy of the track plays right after the current one / at the end of the queue. */
  onPlayNext: (t: Track) => void
  onAddToQueue: (t: Track) => void
  isVideo?: VideoRule
}) {
  return (
    <section aria-labelledby="playlist-panel" className={card({ size: 'list' })}>
      <h2 id="playlist-panel" className={css({ fontWeight: 'bold', px: '1', mb: '2' })}>
        Playlist
      </h2>
      <VirtualList
        items={tracks}
        rowHeight={44}
        maxHeight="40vh"
        activeIndex={activeIndex}
        label="Playlist"
        renderRow={(t, i) => (
          <div className={css({ display: 'flex', alignItems: 'center', gap: '1', h: 'full', pr: '1' })}>
            <button type="button" className={row} aria-current={i === activeIndex} onClick={() => onSelect(i)}>
              <span
                id={`playlist-row-${i}`}
                className={css({ flex: '1', minW: 0, fontSize: 'sm', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' })}
              >
                {displayTitle(t)}
                {t.artist && <span className={css({ color: 'fg.muted' })}> — {t.artist}</span>}
              </span>
              <UnavailableMark reason={t.unavailable} />
              {isVideo(t) && (
                <span
                  className={css({ fontSize: '2xs', fontWeight: 'bold', px: '1.5', py: '0.5', borderRadius: 'md', bg: 'accent.muted', color: 'accent.text' })}
                >
                  Video
                </span>
              )}
            </button>
            <RowAction label="Play next" icon="next" describedBy={`playlist-row-${i}`} onClick={() => onPlayNext(t)} />
            <RowAction label="Add to queue" icon="plus" describedBy={`playlist-row-${i}`} onClick={() => onAddToQueue(t)} />
          </div>
        )}
      />
    </section>
  )
}
