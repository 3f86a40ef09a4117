// Geographic: the top countries, regions and cities, with the DB-IP credit its licence asks for.
// The page owns the query (its period and Refresh All); this tab only shows its answer.
import { css } from 'styled-system/css'
import { errorMessage } from '~/client/global-errors'
import { plural } from '../panels/format'
import { EmptyState, Panel } from '../panels/panel'
import { TabBody, rowList } from './tab-body'
import type { useGeographic } from './queries'
import { mutedText } from '~/client/ui/text'

export function GeographicTab({ query: geographic }: { query: ReturnType<typeof useGeographic> }) {
  return (
    <TabBody query={geographic} label="geographic data" failure={errorMessage(geographic.error, 'Failed to fetch geographic analytics')}>
      {(d) => (
        <div className={css({ display: 'grid', gap: '3' })}>
          <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', lg: 'repeat(3, minmax(0, 1fr))' }, gap: '4' })}>
            {(
              [
                ['Top Countries', d.countries.map((c) => ({ key: c.country, name: c.country, plays: c.plays, users: c.uniqueUsers }))],
                [
                  'Top Regions',
                  d.regions.map((r) => ({
                    key: `${r.region}/${r.country}`,
                    name: [r.region, r.country].filter(Boolean).join(', '),
                    plays: r.plays,
                    users: r.uniqueUsers,
                  })),
                ],
                [
                  'Top Cities',
                  d.cities.map((c) => ({
                    key: `${c.city}/${c.region}/${c.country}`,
                    name: [c.city, c.country].filter(Boolean).join(', '),
                    plays: c.plays,
                    users: c.uniqueUsers,
                  })),
                ],
              ] as const
            ).map(([title, rows]) => (
              <Panel key={title} title={title}>
                {rows.length === 0 ? (
                  <EmptyState
                    title="No location data"
                    text="Places come from the offline GeoIP database for public addresses, or from the proxy's headers (TRUST_PROXY)."
                  />
                ) : (
                  <ul className={rowList}>
                    {rows.slice(0, 8).map((r) => (
                      <li key={r.key}>
                        <span className={css({ minW: 0, wordBreak: 'break-word' })}>{r.name}</span>
                        <span className={css({ color: 'fg.muted', whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' })}>
                          {plural(r.plays, 'play')} · {plural(r.users, 'user')}
                        </span>
                      </li>
                    ))}
                  </ul>
                )}
              </Panel>
            ))}
          </div>
          {/* DB-IP Lite's licence (CC BY 4.0) asks for this link on pages showing its results (decision 036). */}
          <p className={mutedText({ size: 'xs' })}>
            <a href="https://db-ip.com" target="_blank" rel="noreferrer" className={css({ textDecoration: 'underline' })}>
              IP Geolocation by DB-IP
            </a>
          </p>
        </div>
      )}
    </TabBody>
  )
}
