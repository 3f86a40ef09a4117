// The open message: subject, sender name and e-mail, date and body. The body is rendered as text
// (React escapes it; line breaks kept by CSS), never as HTML. Reply opens the admin's mail
// program on a mailto: link addressed to the sender with "Re: <subject>".
import { button, Button } from '~/client/ui/button'
import { css, cx } from 'styled-system/css'
import { stack } from 'styled-system/patterns'

export type Message = { id: string; name: string; email: string; subject: string; message: string; date: string; read: boolean; important: boolean }

type Props = { message: Message; busy: boolean; onToggle: (field: 'read' | 'important') => void; onDelete: () => void }

/** A mailto: URL that survives odd characters in the address and subject. */
export function replyHref(email: string, subject?: string): string {
  const address = email.split('@').map(encodeURIComponent).join('@')
  return subject === undefined ? `mailto:${address}` : `mailto:${address}?subject=${encodeURIComponent(`Re: ${subject}`)}`
}

export function MessageDetail({ message, busy, onToggle, onDelete }: Props) {
  const date = new Date(message.date)
  return (
    <article aria-labelledby="message-subject" className={css({ display: 'flex', flexDirection: 'column', gap: '4', minW: '0' })}>
      <header className={stack({ gap: '1' })}>
        <h3 id="message-subject" className={css({ fontSize: 'lg', fontWeight: 'bold', overflowWrap: 'anywhere' })}>
          {message.subject}
        </h3>
        <p className={css({ fontSize: 'sm', overflowWrap: 'anywhere' })}>
          <span className={css({ fontWeight: 'semibold' })}>{message.name}</span>{' '}
          <a href={replyHref(message.email)} className={css({ color: 'accent.default', _hover: { textDecoration: 'underline' } })}>
            &lt;{message.email}&gt;
          </a>
        </p>
        <time dateTime={message.date} className={css({ fontSize: 'xs', color: 'fg.subtle' })}>
          {Number.isNaN(date.getTime()) ? '' : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}
        </time>
      </header>
      <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', '& > *': { flex: { base: '1 1 auto', sm: 'none' } } })}>
        <Button variant="outline" size="sm" disabled={busy} onClick={() => onToggle('read')}>
          {message.read ? 'Mark as unread' : 'Mark as read'}
        </Button>
        <Button variant="outline" size="sm" disabled={busy} onClick={() => onToggle('important')}>
          <span aria-hidden="true" className={css({ color: message.important ? 'warning.default' : 'fg.subtle' })}>
            {message.important ? '★' : '☆'}
          </span>
          {message.important ? 'Mark as not important' : 'Mark as important'}
        </Button>
        <a href={replyHref(message.email, message.subject)} className={cx(button({ size: 'sm' }))}>
          Reply
        </a>
        <Button variant="ghost" size="sm" disabled={busy} className={css({ color: 'danger.fg', ml: { sm: 'auto' } })} onClick={onDelete}>
          Delete
        </Button>
      </div>
      <div
        data-testid="message-body"
        className={css({
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
          fontSize: 'sm',
          lineHeight: '1.7',
          bg: 'bg.subtle',
          borderRadius: 'lg',
          p: '4',
          borderWidth: '1px',
          borderColor: 'border.default',
        })}
      >
        {message.message}
      </div>
    </article>
  )
}
