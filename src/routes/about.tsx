// /about: what Vibes is — the story behind it, the vision, and what it does.
import { createFileRoute, Link } from '@tanstack/react-router'
import { css, cx } from 'styled-system/css'
import { button } from '~/client/ui/button'

export const Route = createFileRoute('/about')({
  head: () => ({
    meta: [
      { title: 'About · Vibes' },
      { name: 'description', content: 'Vibes is a self-hosted music and video streaming server: your folders, your devices, one binary.' },
    ],
  }),
  component: AboutPage,
})

const FEATURES = [
  {
    icon: '⌂',
    title: 'Self-hosted',
    text: 'Runs on your own machine — a home server, a NAS, a small VPS. Your library and your listening history never leave it.',
  },
  { icon: '▤', title: 'Local folders', text: 'Pick a folder on the device in front of you and play it straight away, no upload and no account needed.' },
  {
    icon: '☁',
    title: 'Remote folders',
    text: 'Signed in, paste the address of a folder on the web — an nginx or Apache directory listing, an M3U or PLS playlist — and stream it as one playlist, in natural order.',
  },
  {
    icon: '★',
    title: 'Member folders',
    text: 'Members keep their own list of music folders — on the server or anywhere on the web — and reorder them by drag and drop.',
  },
  {
    icon: '◔',
    title: 'Listening analytics',
    text: 'Plays, completions, skips, devices, peak hours, genres and regions — so the people who run the server can see how the music is actually listened to.',
  },
  { icon: '⚙', title: 'Admin console', text: 'Manage members and their folders, read the contact inbox, and keep an eye on health and API performance.' },
  { icon: '▶', title: 'Audio and video', text: 'MP3, FLAC, AAC, Ogg, WAV, MP4, WebM and more — with shuffle, repeat, likes, sharing and an Up Next queue.' },
  {
    icon: '⚡',
    title: 'One binary + SQLite',
    text: 'A single executable that keeps everything in one SQLite file. Copy it, run it, done — no database server, no containers required.',
  },
] as const

const VALUES = [
  { title: 'Your files stay yours', text: 'No scanning for someone else, no lock-in. Vibes plays what is already on your disks and in your folders.' },
  { title: 'Simple to run', text: 'Two commands to start, one data folder to back up. If it takes an afternoon to install, it is too complicated.' },
  { title: 'Made for listening', text: 'A player that gets out of the way: fast to load, works on a phone, a laptop or the TV in the living room.' },
] as const

const eyebrow = css({ color: 'accent.default', fontWeight: 'semibold', fontSize: 'sm', textTransform: 'uppercase', letterSpacing: 'wider' })
const h2 = css({ fontSize: { base: '2xl', md: '3xl' }, fontWeight: 'extrabold', letterSpacing: 'tight', mt: '2' })
const lead = css({ color: 'fg.muted', fontSize: { base: 'md', md: 'lg' }, lineHeight: '1.7' })
const gradientText = css({ bgGradient: 'to-r', gradientFrom: 'accent.default', gradientTo: 'accent.pink', bgClip: 'text', color: 'transparent' })
const panel = css({ bg: 'bg.surface', borderWidth: '1px', borderColor: 'border.default', borderRadius: '2xl' })

function AboutPage() {
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: { base: '16', md: '24' }, pb: '8' })}>
      {/* Hero */}
      <section
        className={css({
          position: 'relative',
          textAlign: 'center',
          pt: { base: '6', md: '14' },
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          gap: '5',
        })}
      >
        <div
          aria-hidden
          className={css({
            position: 'absolute',
            inset: '0',
            mx: 'auto',
            maxW: '3xl',
            h: '72',
            bgGradient: 'to-r',
            gradientFrom: 'accent.default/25',
            gradientTo: 'accent.pink/25',
            filter: 'blur(80px)',
            borderRadius: 'full',
            zIndex: -1,
          })}
        />
        <p className={eyebrow}>About Vibes</p>
        <h1 className={css({ fontSize: { base: '4xl', md: '6xl' }, fontWeight: 'extrabold', letterSpacing: 'tight', lineHeight: '1.05', maxW: '4xl' })}>
          Your music, on your server, <span className={gradientText}>everywhere you listen</span>
        </h1>
        <p className={cx(lead, css({ maxW: '2xl' }))}>
          Vibes is a self-hosted music and video streaming app. Play a folder from the device in your hand, stream a folder from anywhere on the web, and keep
          your collection — and what you learn from listening to it — on a machine you own.
        </p>
        <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', justifyContent: 'center', mt: '2' })}>
          <Link to="/" className={button({ size: 'lg' })}>
            Open the player
          </Link>
          <Link to="/charts" className={button({ variant: 'outline', size: 'lg' })}>
            See the charts
          </Link>
        </div>
      </section>

      {/* Story */}
      <section
        aria-labelledby="story"
        className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', lg: '1fr 1fr' }, gap: { base: '8', lg: '14' }, alignItems: 'center' })}
      >
        <div>
          <p className={eyebrow}>The story</p>
          <h2 id="story" className={h2}>
            It started with a drawer full of hard drives
          </h2>
          <div className={cx(lead, css({ display: 'flex', flexDirection: 'column', gap: '4', mt: '5' }))}>
            <p>
              Vibes was built by a listener who had spent twenty years collecting music — ripped CDs, concert recordings, a friend's band's demos, lossless
              albums bought straight from the artists — and could no longer play most of it. The files were there. The streaming apps weren't interested in
              them.
            </p>
            <p>
              The existing media servers were powerful, but they wanted a database server, a container stack and a weekend of configuration. What was missing
              was something you could start with one command, open in any browser, and hand to friends and family with their own accounts.
            </p>
            <p>So Vibes was written to be exactly that: a player first, a server second, and never more complicated than the music deserves.</p>
          </div>
        </div>
        <div className={cx(panel, css({ p: { base: '6', md: '8' }, display: 'grid', gridTemplateColumns: 'repeat(2, 1fr)', gap: '6' }))}>
          {[
            ['1', 'binary to run'],
            ['0', 'external services'],
            ['13', 'audio & video formats'],
            ['11', 'chart regions'],
          ].map(([n, label]) => (
            <div key={label}>
              <p className={cx(gradientText, css({ fontSize: { base: '4xl', md: '5xl' }, fontWeight: 'extrabold', lineHeight: '1' }))}>{n}</p>
              <p className={css({ color: 'fg.muted', fontSize: 'sm', mt: '2' })}>{label}</p>
            </div>
          ))}
        </div>
      </section>

      {/* Vision */}
      <section aria-labelledby="vision" className={css({ textAlign: 'center', display: 'flex', flexDirection: 'column', alignItems: 'center' })}>
        <p className={eyebrow}>The vision</p>
        <h2 id="vision" className={cx(h2, css({ maxW: '3xl' }))}>
          A music service that belongs to the people who listen
        </h2>
        <p className={cx(lead, css({ maxW: '2xl', mt: '4' }))}>
          Streaming made music easy to reach and easy to lose. Vibes aims for the opposite trade: the convenience of a modern player, with the ownership of a
          record shelf. It should run anywhere, answer to you, and show you the truth about your own listening.
        </p>
        <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', md: 'repeat(3, 1fr)' }, gap: '4', mt: '10', w: 'full', textAlign: 'left' })}>
          {VALUES.map((v) => (
            <div key={v.title} className={cx(panel, css({ p: '6' }))}>
              <h3 className={css({ fontWeight: 'bold', fontSize: 'lg' })}>{v.title}</h3>
              <p className={css({ color: 'fg.muted', mt: '2', fontSize: 'sm', lineHeight: '1.6' })}>{v.text}</p>
            </div>
          ))}
        </div>
      </section>

      {/* Features */}
      <section aria-labelledby="features">
        <div className={css({ textAlign: 'center', mb: '10' })}>
          <p className={eyebrow}>What it does</p>
          <h2 id="features" className={h2}>
            Everything you need, nothing you have to babysit
          </h2>
        </div>
        <ul className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' }, gap: '4' })}>
          {FEATURES.map((f) => (
            <li
              key={f.title}
              className={cx(
                panel,
                css({
                  p: { base: '5', sm: '6' },
                  display: 'flex',
                  flexDirection: { base: 'row', sm: 'column' },
                  gap: '4',
                  transition: 'border-color 0.15s, transform 0.15s',
                  _hover: { borderColor: 'accent.default', transform: 'translateY(-2px)' },
                }),
              )}
            >
              <span
                aria-hidden
                className={css({
                  flexShrink: 0,
                  display: 'grid',
                  placeItems: 'center',
                  w: '11',
                  h: '11',
                  borderRadius: 'xl',
                  bg: 'accent.muted',
                  color: 'accent.default',
                  fontSize: 'xl',
                })}
              >
                {f.icon}
              </span>
              <div>
                <h3 className={css({ fontWeight: 'bold' })}>{f.title}</h3>
                <p className={css({ color: 'fg.muted', fontSize: 'sm', mt: '2', lineHeight: '1.6' })}>{f.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </section>

      {/* Call to action */}
      <section
        aria-labelledby="talk"
        className={cx(
          panel,
          css({
            position: 'relative',
            overflow: 'hidden',
            p: { base: '8', md: '12' },
            textAlign: 'center',
            display: 'flex',
            flexDirection: 'column',
            alignItems: 'center',
            gap: '4',
          }),
        )}
      >
        <div
          aria-hidden
          className={css({ position: 'absolute', inset: '0', bgGradient: 'to-br', gradientFrom: 'accent.default/15', gradientTo: 'accent.pink/15' })}
        />
        <h2 id="talk" className={cx(h2, css({ position: 'relative' }))}>
          Questions, ideas, a bug to report?
        </h2>
        <p className={cx(lead, css({ position: 'relative', maxW: 'xl' }))}>We read every message. Tell us what you'd like Vibes to do next.</p>
        <Link to="/contact" className={cx(button({ size: 'lg' }), css({ position: 'relative' }))}>
          Contact us
        </Link>
      </section>
    </div>
  )
}
