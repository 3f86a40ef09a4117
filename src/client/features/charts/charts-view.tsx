// The Charts page body: region select (opening on the
// instance's DEFAULT_COUNTRY when it is a chart region, else the worldwide chart), the
// chart fetched at once on region change, every 60 s and on Refresh; loading, error, empty, data.
// Besides the 11 regions the select offers this server's worldwide chart, and an empty local
// region chart points to it (a LAN install's plays often have no country).
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { css } from 'styled-system/css'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { Icon } from '~/client/ui/icon'
import { SelectField } from '~/client/ui/select'
import { type ChartRegion, REGIONS, regionName, WORLDWIDE } from '~/shared/regions'
import { relativeTime } from '~/shared/relative-time'
import { chartsErrorMessage } from './chart-error'
import { ChartList } from './chart-list'
import { useNow } from './use-now'

export const CHARTS_REFRESH_MS = 60_000

const REGION_OPTIONS = [...REGIONS.map((r) => ({ value: r.code, label: r.name })), { value: WORLDWIDE, label: regionName(WORLDWIDE) ?? WORLDWIDE }]

/** "the United States", "the United Kingdom", but "Japan": the name as it reads inside a sentence. */
export function regionInSentence(code: string): string {
  if (code === WORLDWIDE) return 'everyone on this server'
  const name = regionName(code) ?? code
  return name.startsWith('United ') ? `the ${name}` : name
}

const card = css({ bg: 'bg.surface', borderWidth: '1px', borderColor: 'border.default', borderRadius: '2xl', p: { base: '2', sm: '4' }, boxShadow: 'lg' })

function LoadingRows() {
  return (
    <div role="status" aria-label="Loading charts" className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
      {Array.from({ length: 6 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: identical loading placeholders
        <div key={i} className={css({ display: 'flex', alignItems: 'center', gap: '4', px: '4', py: '3' })}>
          <span className={css({ w: '6', h: '5', borderRadius: 'sm', bg: 'bg.subtle' })} />
          <span className={css({ w: '14', h: '14', borderRadius: 'lg', bg: 'bg.subtle', flexShrink: 0 })} />
          <span className={css({ flex: 1, display: 'flex', flexDirection: 'column', gap: '2' })}>
            <span className={css({ h: '4', w: '1/2', borderRadius: 'sm', bg: 'bg.subtle' })} />
            <span className={css({ h: '3', w: '1/3', borderRadius: 'sm', bg: 'bg.subtle' })} />
          </span>
        </div>
      ))}
    </div>
  )
}

export function ChartsView({ initialRegion }: { initialRegion: ChartRegion }) {
  const trpc = useTRPC()
  const [region, setRegion] = useState<ChartRegion>(initialRegion)
  const now = useNow()
  const chart = useQuery(trpc.charts.byRegion.queryOptions({ region }, { refetchInterval: CHARTS_REFRESH_MS, staleTime: CHARTS_REFRESH_MS }))
  const data = chart.data
  // The ticking clock can be up to one tick behind a chart that just arrived; never read the time
  // as earlier than the moment the data came in.
  const clock = now === null ? null : Math.max(now, chart.dataUpdatedAt)

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '6' })}>
      <header
        className={css({
          display: 'flex',
          flexDirection: { base: 'column', md: 'row' },
          alignItems: { base: 'stretch', md: 'flex-end' },
          justifyContent: 'space-between',
          gap: '5',
        })}
      >
        <div>
          <p className={css({ color: 'accent.default', fontWeight: 'semibold', fontSize: 'sm', textTransform: 'uppercase', letterSpacing: 'wider' })}>Charts</p>
          <h1 className={css({ fontSize: { base: '3xl', md: '4xl' }, fontWeight: 'extrabold', letterSpacing: 'tight' })}>Most-Played Songs</h1>
          <p className={css({ color: 'fg.muted', mt: '1' })}>What {regionInSentence(region)} is listening to right now.</p>
        </div>
        <div className={css({ display: 'flex', alignItems: 'flex-end', gap: '3' })}>
          <SelectField
            label="Region"
            options={REGION_OPTIONS}
            value={region}
            onValueChange={(v) => setRegion(v as ChartRegion)}
            className={css({ flex: { base: '1', md: 'none' }, w: { md: '56' } })}
          />
          {/* Never `disabled` while fetching: a disabled button drops keyboard focus mid-refresh. */}
          <Button variant="outline" onClick={() => chart.isFetching || void chart.refetch()} aria-disabled={chart.isFetching} aria-busy={chart.isFetching}>
            <Icon name="refresh" size={16} className={chart.isFetching ? css({ animation: 'spin 0.8s linear infinite' }) : undefined} />
            Refresh
          </Button>
        </div>
      </header>

      <section aria-labelledby="chart-title" className={card}>
        <div
          className={css({
            display: 'flex',
            flexWrap: 'wrap',
            justifyContent: 'space-between',
            alignItems: 'baseline',
            gap: '2',
            px: { base: '2', sm: '4' },
            pt: '2',
            pb: '4',
          })}
        >
          <h2 id="chart-title" className={css({ fontSize: 'lg', fontWeight: 'bold' })}>
            Top songs · {regionName(region)}
          </h2>
          {data && clock !== null && (
            <p className={css({ fontSize: 'xs', color: 'fg.muted', display: 'flex', gap: '3', flexWrap: 'wrap' })}>
              <span>
                Last updated <time dateTime={data.updated}>{relativeTime(data.updated, clock)}</time>
              </span>
              <span aria-hidden>·</span>
              <span>
                Updated: <time dateTime={new Date(chart.dataUpdatedAt).toISOString()}>{new Date(chart.dataUpdatedAt).toLocaleTimeString()}</time>
              </span>
            </p>
          )}
        </div>

        {chart.isPending ? (
          <LoadingRows />
        ) : chart.isError && !data ? (
          <div
            role="alert"
            className={css({ textAlign: 'center', py: '14', px: '4', display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '3' })}
          >
            <h3 className={css({ fontSize: 'lg', fontWeight: 'bold', color: 'danger.fg' })}>Error Loading Charts</h3>
            <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>{chartsErrorMessage(chart.error)}</p>
            <Button variant="outline" onClick={() => void chart.refetch()}>
              Try Again
            </Button>
          </div>
        ) : !data || data.tracks.length === 0 ? (
          <div className={css({ textAlign: 'center', py: '14', px: '4', color: 'fg.muted' })}>
            <p className={css({ fontSize: 'lg', fontWeight: 'semibold', color: 'fg.default' })}>No chart data available</p>
            <p className={css({ fontSize: 'sm', mt: '1' })}>
              {data?.source === 'feed'
                ? `The chart feed has no songs for ${regionInSentence(region)} at the moment.`
                : region === WORLDWIDE
                  ? 'Nothing has been played on this server in the last 30 days.'
                  : `Nothing has been played from ${regionInSentence(region)} on this server in the last 30 days.`}{' '}
              Check back soon.
            </p>
            {region !== WORLDWIDE && (
              <Button variant="outline" className={css({ mt: '4' })} onClick={() => setRegion(WORLDWIDE)}>
                Show this server's worldwide chart
              </Button>
            )}
          </div>
        ) : (
          <>
            {chart.isError && (
              <p
                role="alert"
                className={css({
                  mx: { base: '2', sm: '4' },
                  mb: '3',
                  fontSize: 'sm',
                  color: 'warning.fg',
                  bg: 'warning.muted',
                  px: '3',
                  py: '2',
                  borderRadius: 'lg',
                })}
              >
                Couldn't refresh: {chartsErrorMessage(chart.error)}. Showing the last loaded chart.
              </p>
            )}
            <ChartList tracks={data.tracks} label={`Charts · ${regionName(region)}`} />
            <p className={css({ fontSize: 'xs', color: 'fg.subtle', px: { base: '2', sm: '4' }, pt: '4' })}>
              {data.source === 'feed'
                ? 'Chart from the configured music chart feed.'
                : region === WORLDWIDE
                  ? 'Ranked by plays from everyone on this server over the last 30 days.'
                  : `Ranked by plays from ${regionInSentence(region)} on this server over the last 30 days.`}
            </p>
          </>
        )}
      </section>
    </div>
  )
}
