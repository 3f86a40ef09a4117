// Patterns: plays by hour of the day (UTC) and the top genres with their completion.
// The page owns the query (its period and Refresh All); this tab only shows its answer.
import { errorMessage } from '~/client/global-errors'
import { barWidth, formatCount, genreLabel, hourLabel, percentWhole } from '../panels/format'
import { Bar, EmptyState, Panel, panelGrid } from '../panels/panel'
import { TabBody, list } from './tab-body'
import type { usePatterns } from './queries'
import { stack } from 'styled-system/patterns'

export function PatternsTab({ query: patterns }: { query: ReturnType<typeof usePatterns> }) {
  return (
    <TabBody query={patterns} label="listening patterns" failure={errorMessage(patterns.error, 'Failed to fetch listening patterns')}>
      {(d) => {
        const max = Math.max(0, ...d.hourlyPattern.map((h) => h.plays))
        return (
          <div className={panelGrid}>
            <Panel title="Plays by Hour (UTC)">
              <ul className={stack({ gap: '1.5' })} aria-label="Plays per hour of the day">
                {d.hourlyPattern.map((h) => (
                  <Bar key={h.hour} label={hourLabel(h.hour)} value={formatCount(h.plays)} width={barWidth(h.plays, max, 5)} />
                ))}
              </ul>
            </Panel>
            <Panel title="Top Genres">
              {d.genrePattern.length === 0 ? (
                <EmptyState title="No plays in this period" />
              ) : (
                <ul className={list}>
                  {d.genrePattern.slice(0, 8).map((g) => (
                    <Bar
                      key={g.genre ?? '\u0000'}
                      label={genreLabel(g.genre)}
                      value={formatCount(g.plays)}
                      detail={`${percentWhole(g.averageCompletionRate)} completed`}
                      width={barWidth(g.plays, d.genrePattern[0].plays)}
                    />
                  ))}
                </ul>
              )}
            </Panel>
          </div>
        )
      }}
    </TabBody>
  )
}
