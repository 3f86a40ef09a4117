// /contact: a short introduction beside the form; messages land in the admin inbox.
import { createFileRoute, Link } from '@tanstack/react-router'
import { css } from 'styled-system/css'
import { ContactForm } from '~/client/features/contact/contact-form'

export const Route = createFileRoute('/contact')({
  head: () => ({ meta: [{ title: 'Contact · Vibes' }] }),
  component: ContactPage,
})

const point = css({ display: 'flex', gap: '3', alignItems: 'flex-start', fontSize: 'sm', color: 'fg.muted' })
const dot = css({
  flexShrink: 0,
  w: '8',
  h: '8',
  borderRadius: 'lg',
  bg: 'accent.muted',
  color: 'accent.default',
  display: 'grid',
  placeItems: 'center',
  fontSize: 'md',
})

function Icon({ d }: { d: string }) {
  return (
    <span aria-hidden className={dot}>
      <svg
        aria-hidden="true"
        width="16"
        height="16"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d={d} />
      </svg>
    </span>
  )
}

function ContactPage() {
  return (
    <div
      className={css({
        display: 'grid',
        gridTemplateColumns: { base: '1fr', lg: '1fr 1.1fr' },
        gap: { base: '8', lg: '16' },
        alignItems: 'start',
        py: { base: '2', md: '8' },
      })}
    >
      <section className={css({ display: 'flex', flexDirection: 'column', gap: '5' })}>
        <p className={css({ color: 'accent.default', fontWeight: 'semibold', fontSize: 'sm', textTransform: 'uppercase', letterSpacing: 'wider' })}>Contact</p>
        <h1 className={css({ fontSize: { base: '3xl', md: '5xl' }, fontWeight: 'extrabold', letterSpacing: 'tight', lineHeight: '1.1' })}>
          Let's talk about{' '}
          <span className={css({ bgGradient: 'to-r', gradientFrom: 'accent.default', gradientTo: 'accent.pink', bgClip: 'text', color: 'transparent' })}>
            your music
          </span>
        </h1>
        <p className={css({ color: 'fg.muted', fontSize: { base: 'md', md: 'lg' }, maxW: 'xl' })}>
          A question about setting up your server, an idea for the player, or something that didn't work the way it should — send it over. Every message goes
          straight to the people who run this Vibes server.
        </p>
        <ul className={css({ display: 'flex', flexDirection: 'column', gap: '4', mt: '2' })}>
          <li className={point}>
            <Icon d="M4 6h16v12H4z M4 7l8 6 8-6" />
            <span>
              <strong className={css({ color: 'fg.default', display: 'block' })}>Read by a person</strong>
              Messages arrive in the admin inbox of this server, not in a ticket robot.
            </span>
          </li>
          <li className={point}>
            <Icon d="M5 21V4 M5 4h11l-2 4 2 4H5" />
            <span>
              <strong className={css({ color: 'fg.default', display: 'block' })}>Bug reports welcome</strong>
              Tell us what you played, on which device, and what happened — it helps a lot.
            </span>
          </li>
          <li className={point}>
            <Icon d="M6 11h12v10H6z M9 11V8a3 3 0 0 1 6 0v3" />
            <span>
              <strong className={css({ color: 'fg.default', display: 'block' })}>Your address stays here</strong>
              We only use your e-mail to answer you.
            </span>
          </li>
        </ul>
        <Link
          to="/"
          className={css({
            color: 'accent.default',
            fontWeight: 'medium',
            fontSize: 'sm',
            mt: '2',
            alignSelf: 'flex-start',
            _hover: { textDecoration: 'underline' },
          })}
        >
          <span aria-hidden>← </span>Back to Home
        </Link>
      </section>
      <section
        aria-labelledby="contact-form-title"
        className={css({
          bg: 'bg.surface',
          borderWidth: '1px',
          borderColor: 'border.default',
          borderRadius: '2xl',
          p: { base: '5', md: '8' },
          boxShadow: 'xl',
        })}
      >
        <h2 id="contact-form-title" className={css({ fontSize: 'xl', fontWeight: 'bold', mb: '1' })}>
          Send us a message
        </h2>
        <p className={css({ color: 'fg.muted', fontSize: 'sm', mb: '6' })}>All fields are required.</p>
        <ContactForm />
      </section>
    </div>
  )
}
