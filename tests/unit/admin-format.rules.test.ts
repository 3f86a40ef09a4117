// The admin screens' display rules: listen-time formats, percent precision,
// colour thresholds, peak hours, bar widths, health back-off, and the Page Views chart config
// with its sample data.
import { describe, expect, test } from 'bun:test'
import {
  barWidth,
  clockDuration,
  engagementErrorMessage,
  errorRateTone,
  genreLabel,
  HEALTH_CACHE_MS,
  healthRefreshMs,
  latencyTone,
  listenTimeAnalytics,
  listenTimeInsights,
  newUsersText,
  peakHours,
  percent1,
  percentWhole,
  plural,
  shortId,
  sortTracks,
  statsRefreshMs,
  topTracksRefreshMs,
} from '~/client/features/admin/panels/format'
import { hasNoViews, pageViewsChart, SAMPLE_LABEL, samplePageViews } from '~/client/features/admin/stats/page-views'

describe('listen time', () => {
  test('Insights: minutes below an hour, then hours and minutes', () => {
    expect(listenTimeInsights(0)).toBe('0m')
    expect(listenTimeInsights(89)).toBe('1m')
    expect(listenTimeInsights(3599)).toBe('60m')
    expect(listenTimeInsights(3600)).toBe('1h 0m')
    expect(listenTimeInsights(7530)).toBe('2h 5m')
    expect(listenTimeInsights(undefined)).toBe('0m')
  })
  test('Listening Analytics: 0m when empty, minutes under an hour, else hours to one decimal', () => {
    expect(listenTimeAnalytics(0)).toBe('0m')
    expect(listenTimeAnalytics(null)).toBe('0m')
    expect(listenTimeAnalytics(240)).toBe('4m')
    expect(listenTimeAnalytics(3599)).toBe('60m')
    expect(listenTimeAnalytics(3600)).toBe('1.0h')
    expect(listenTimeAnalytics(9000)).toBe('2.5h')
  })
  test('average durations read as m:ss', () => {
    expect(clockDuration(187)).toBe('3:07')
    expect(clockDuration(59.6)).toBe('1:00')
    expect(clockDuration(0)).toBe('0:00')
  })
})

describe('numbers', () => {
  test('Insights rates have one decimal, Listening Analytics whole percents, null is N/A', () => {
    expect(percent1(16.666)).toBe('16.7%')
    expect(percent1(0)).toBe('0.0%')
    expect(percentWhole(16.666)).toBe('17%')
    expect(percentWhole(null)).toBe('N/A')
    expect(percent1(null)).toBe('N/A')
  })
  test('plurals and the New Users plus sign', () => {
    expect(plural(1, 'play')).toBe('1 play')
    expect(plural(1200, 'play')).toBe('1,200 plays')
    expect(newUsersText(3)).toBe('+3')
    expect(newUsersText(0)).toBe('0')
  })
  test('genres without a tag read Unknown; playlist ids show 8 characters', () => {
    expect(genreLabel(null)).toBe('Unknown')
    expect(genreLabel('  ')).toBe('Unknown')
    expect(genreLabel('Jazz')).toBe('Jazz')
    expect(shortId('pl-aaaaaaaa-1111')).toBe('pl-aaaaa')
  })
})

describe('colours and timing', () => {
  test('latency: under 100 green, under 300 yellow, else red', () => {
    expect([latencyTone(0), latencyTone(99.9), latencyTone(100), latencyTone(299), latencyTone(300)]).toEqual(['good', 'good', 'warn', 'warn', 'bad'])
  })
  test('error rate (a fraction): under 0.1 green, under 0.5 yellow, else red', () => {
    expect([errorRateTone(0), errorRateTone(0.09), errorRateTone(0.1), errorRateTone(0.49), errorRateTone(0.5)]).toEqual([
      'good',
      'good',
      'warn',
      'warn',
      'bad',
    ])
  })
  test('health: 30 s when healthy; doubling back-off capped at 60 s with under 100 ms of jitter', () => {
    expect(healthRefreshMs(0)).toBe(30_000)
    expect(healthRefreshMs(1, () => 0)).toBe(2000)
    expect(healthRefreshMs(3, () => 0)).toBe(8000)
    expect(healthRefreshMs(10, () => 0)).toBe(60_000)
    expect(healthRefreshMs(10, () => 0.999)).toBeLessThan(60_100)
  })
  test('health: 5 minutes in a flag state (rate-limited or auth error), whatever the failures; results cached 2 minutes', () => {
    expect(healthRefreshMs(0, () => 0, true)).toBe(300_000)
    expect(healthRefreshMs(4, () => 0.5, true)).toBe(300_000)
    expect(healthRefreshMs(0, () => 0, false)).toBe(30_000)
    expect(HEALTH_CACHE_MS).toBe(120_000)
  })
  test('Top Tracks refresh every 30 minutes on Insights; elsewhere 3 minutes, or 5 while rate-limited', () => {
    expect(topTracksRefreshMs('insights', false)).toBe(1_800_000)
    expect(topTracksRefreshMs('insights', true)).toBe(1_800_000)
    expect(topTracksRefreshMs('elsewhere', false)).toBe(180_000)
    expect(topTracksRefreshMs('elsewhere', true)).toBe(300_000)
  })
  test('stats refresh every 5 minutes, 10 while rate-limited', () => {
    expect(statsRefreshMs(false)).toBe(300_000)
    expect(statsRefreshMs(true)).toBe(600_000)
  })
  test('engagement errors name the status or the connection', () => {
    expect(engagementErrorMessage('Failed to fetch engagement analytics', 503, true)).toBe('Failed to fetch engagement analytics - Server returned status: 503')
    expect(engagementErrorMessage('Failed to fetch engagement analytics', undefined, false)).toBe(
      'Failed to fetch engagement analytics - Please check your internet connection',
    )
  })
})

describe('lists and bars', () => {
  test('peak hours: the busiest 6, most plays first, earlier hour on ties, quiet hours left out', () => {
    const hourly = Array.from({ length: 24 }, (_, hour) => ({ hour, plays: [3, 7, 7, 0, 1, 9, 2, 4, 0, 5][hour] ?? 0 }))
    expect(peakHours(hourly).map((h) => h.hour)).toEqual([5, 1, 2, 9, 7, 0])
    expect(peakHours(hourly.map((h) => ({ ...h, plays: 0 })))).toEqual([])
  })
  test('bars: share of the largest, at least the minimum, at most 100', () => {
    expect(barWidth(5, 10)).toBe(50)
    expect(barWidth(0, 10, 5)).toBe(5)
    expect(barWidth(0, 0, 5)).toBe(5)
    expect(barWidth(1, 100, 5)).toBe(5)
    expect(barWidth(20, 10)).toBe(100)
  })
  test('top tracks sort by plays both ways', () => {
    const tracks = [
      { trackUrl: 'a', title: 'A', artist: null, count: 2 },
      { trackUrl: 'b', title: 'B', artist: null, count: 5 },
      { trackUrl: 'c', title: 'C', artist: null, count: 1 },
    ]
    expect(sortTracks(tracks, 'desc').map((t) => t.title)).toEqual(['B', 'A', 'C'])
    expect(sortTracks(tracks, 'asc').map((t) => t.title)).toEqual(['C', 'A', 'B'])
  })
})

describe('Page Views chart', () => {
  const now = Date.UTC(2026, 2, 15, 12) // Sunday 15 March 2026
  test('sample data: 30 days ending today, 50–149 base views, weekends scaled down', () => {
    const low = samplePageViews(now, () => 0)
    expect(low).toHaveLength(30)
    expect(low.at(-1)!.date).toBe('2026-03-15')
    expect(low[0].date).toBe('2026-02-14')
    expect(low.at(-1)!.views).toBe(30) // Sunday: 50 × 0.6
    expect(low.at(-3)!.views).toBe(50) // Friday
    const high = samplePageViews(now, () => 0.9999)
    expect(Math.max(...high.map((d) => d.views))).toBe(149)
    expect(high.every((d) => d.visitors <= d.views)).toBe(true)
  })
  test('no views, or no days, means the sample is drawn', () => {
    expect(hasNoViews(undefined)).toBe(true)
    expect(hasNoViews([])).toBe(true)
    expect(hasNoViews([{ date: '2026-03-15', views: 0, visitors: 0 }])).toBe(true)
    expect(hasNoViews([{ date: '2026-03-15', views: 1, visitors: 1 }])).toBe(false)
  })
  test('the config: day labels, views and visitors lines, sample dashed and labelled', () => {
    const days = [
      { date: '2026-03-14', views: 10, visitors: 4 },
      { date: '2026-03-15', views: 12, visitors: 6 },
    ]
    const real = pageViewsChart(days, false)
    expect(real.data.labels).toEqual(['Mar 14', 'Mar 15'])
    expect(real.data.datasets.map((d) => d.label)).toEqual(['Views', 'Visitors'])
    expect(real.data.datasets[0].data).toEqual([10, 12])
    expect(real.data.datasets[1].data).toEqual([4, 6])
    expect((real.data.datasets[0] as { borderDash?: number[] }).borderDash).toBeUndefined()
    expect(real.options.scales?.y).toMatchObject({ beginAtZero: true })
    const sample = pageViewsChart(days, true)
    expect(sample.data.datasets.map((d) => d.label)).toEqual(['Views (sample)', 'Visitors (sample)'])
    expect((sample.data.datasets[0] as { borderDash?: number[] }).borderDash).toEqual([6, 4])
    expect(SAMPLE_LABEL).toBe('30 days (sample)')
  })
})
