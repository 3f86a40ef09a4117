// The inbox list: sender, subject, one-line preview, date, an unread dot and an important star;
// at most 600 px tall (it scrolls), 50 messages a page with "Load more" below.
import { Button } from '~/client/ui/button'
import { relativeTime } from '~/shared/relative-time'
import { css } from 'styled-system/css'

export type MessageSummary = { id: string; name: string; email: string; subject: string; preview: string; date: string; read: boolean; important: boolean }

type Props = {
  messages: MessageSummary[]
  selectedId: string | null
  onOpen: (message: MessageSummary) => void
  hasMore: boolean
  loadingMore: boolean
  onLoadMore: () => void
}

const item = css({
  w: 'full',
  display: 'flex',
  gap: '3',
  textAlign: 'left',
  px: '4',
  py: '3',
  cursor: 'pointer',
  borderBottomWidth: '1px',
  borderColor: 'border.default',
  borderLeftWidth: '3px',
  borderLeftColor: 'transparent',
  _hover: { bg: 'bg.subtle' },
  '&[aria-current=true]': { bg: 'accent.muted', borderLeftColor: 'accent.default' },
})

export function MessageList({ messages, selectedId, onOpen, hasMore, loadingMore, onLoadMore }: Props) {
  return (
    <div className={css({ position: 'relative', maxH: '600px', overflowY: 'auto' })}>
      <ul aria-label="Messages">
        {messages.map((m) => (
          <li key={m.id} data-message-id={m.id} data-read={m.read} data-important={m.important}>
            <button type="button" className={item} aria-current={m.id === selectedId ? 'true' : undefined} onClick={() => onOpen(m)}>
              <span
                aria-hidden="true"
                className={css({ flexShrink: 0, w: '2', h: '2', mt: '1.5', borderRadius: 'full', bg: m.read ? 'transparent' : 'accent.default' })}
              />
              <span className={css({ display: 'flex', flexDirection: 'column', gap: '0.5', minW: '0', flex: '1' })}>
                <span className={css({ display: 'flex', alignItems: 'baseline', gap: '2' })}>
                  <span
                    className={css({
                      fontSize: 'sm',
                      fontWeight: m.read ? 'medium' : 'bold',
                      overflow: 'hidden',
                      textOverflow: 'ellipsis',
                      whiteSpace: 'nowrap',
                      flex: '1',
                      minW: '0',
                    })}
                  >
                    {m.name}
                  </span>
                  {m.important && (
                    <span title="Important" className={css({ color: 'warning.default', flexShrink: 0 })}>
                      <span aria-hidden="true">★</span>
                    </span>
                  )}
                  <time dateTime={m.date} className={css({ fontSize: 'xs', color: 'fg.subtle', flexShrink: 0, whiteSpace: 'nowrap' })}>
                    {relativeTime(m.date)}
                  </time>
                </span>
                <span
                  className={css({
                    fontSize: 'sm',
                    fontWeight: m.read ? 'normal' : 'semibold',
                    overflow: 'hidden',
                    textOverflow: 'ellipsis',
                    whiteSpace: 'nowrap',
                  })}
                >
                  {m.subject}
                </span>
                <span className={css({ fontSize: 'xs', color: 'fg.muted', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' })}>
                  {m.preview}
                </span>
                <span className={css({ srOnly: true })}>
                  {m.read ? 'Read' : 'Unread'}
                  {m.important ? ', important' : ''}
                </span>
              </span>
            </button>
          </li>
        ))}
      </ul>
      {hasMore && (
        <div className={css({ p: '3', display: 'flex', justifyContent: 'center' })}>
          <Button variant="outline" size="sm" onClick={onLoadMore} disabled={loadingMore}>
            {loadingMore ? 'Loading...' : 'Load more'}
          </Button>
        </div>
      )}
    </div>
  )
}
