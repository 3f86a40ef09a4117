// /profile "Downloads on this device": how much the member's offline albums and playlists take of
// the limit they set for this device, the limit itself, each download with Remove, and Remove all.
import { Link } from '@tanstack/react-router'
import { css } from 'styled-system/css'
import { listClass, rowClass, rowMeta } from '~/client/features/profile/sessions-section'
import { ProfileSection, touchTarget } from '~/client/features/profile/profile-section'
import { Button } from '~/client/ui/button'
import { SelectField } from '~/client/ui/select'
import { formatBytes, LIMIT_CHOICES, pageDownloads, useDownloads } from './downloads'

const meter = css({
  appearance: 'none',
  display: 'block',
  h: '2',
  w: 'full',
  '&::-webkit-meter-bar': { bg: 'bg.muted', border: 'none', borderRadius: 'full', h: '2' },
  '&::-webkit-meter-optimum-value': { bgGradient: 'to-r', gradientFrom: 'accent.default', gradientTo: 'accent.pink', borderRadius: 'full' },
  '&::-moz-meter-bar': { bg: 'accent.default', borderRadius: 'full' },
})

export function DownloadsSection() {
  const d = useDownloads()
  const description = 'Albums and playlists you download play here with no network. They are removed when you sign out.'
  if (!d.supported)
    return (
      <ProfileSection id="downloads" title="Downloads on this device" description={description}>
        <p className={rowMeta}>This browser can keep downloads only when Vibes is opened over https.</p>
      </ProfileSection>
    )
  const limitOptions = LIMIT_CHOICES.map((bytes) => ({ value: String(bytes), label: formatBytes(bytes) }))
  if (!LIMIT_CHOICES.includes(d.limit)) limitOptions.push({ value: String(d.limit), label: formatBytes(d.limit) })
  return (
    <ProfileSection id="downloads" title="Downloads on this device" description={description}>
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
        <p data-testid="downloads-usage">
          {formatBytes(d.used)} of {formatBytes(d.limit)} used
        </p>
        <meter
          min={0}
          max={d.limit}
          value={d.used}
          aria-label="Space used by downloads"
          aria-valuetext={`${formatBytes(d.used)} of ${formatBytes(d.limit)}`}
          className={meter}
        />
      </div>
      <SelectField
        label="Space for downloads"
        options={limitOptions}
        value={String(d.limit)}
        onValueChange={(v) => pageDownloads().setLimit(Number(v))}
        // A 44 px trigger, as every touch target on this page.
        className={css({ maxW: 'xs', '& [data-part=trigger]': { h: '11' } })}
      />
      {d.collections.length === 0 ? (
        <p className={rowMeta}>Nothing downloaded yet: use "Download for offline" on an album or playlist.</p>
      ) : (
        <>
          <p>
            <Link to="/downloads" className={css({ textDecoration: 'underline', display: 'inline-flex', alignItems: 'center', minH: '11' })}>
              Play your downloads
            </Link>
          </p>
          <ul className={listClass} aria-label="Downloads">
            {d.collections.map((c) => (
              <li key={`${c.kind}:${c.id}`} className={rowClass}>
                <div>
                  <p className={css({ fontWeight: 'medium' })}>{c.name}</p>
                  <p className={rowMeta}>
                    {c.kind === 'album' ? 'Album' : 'Playlist'} · {formatBytes(c.bytes)}
                  </p>
                </div>
                <Button variant="outline" className={touchTarget} aria-label={`Remove download of ${c.name}`} onClick={() => void pageDownloads().remove(c)}>
                  Remove
                </Button>
              </li>
            ))}
          </ul>
          <Button variant="outline" className={css({ minH: '11', alignSelf: 'flex-start' })} onClick={() => void pageDownloads().removeAll()}>
            Remove all downloads
          </Button>
        </>
      )}
    </ProfileSection>
  )
}
