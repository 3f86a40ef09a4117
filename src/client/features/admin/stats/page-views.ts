// The Page Views line chart (30 days): the chart.js config as a
// pure function, and the generated sample shown when the server has no views or fails.
import type { ChartData, ChartOptions } from 'chart.js'

export type DailyViews = { date: string; views: number; visitors: number }

export const PAGE_VIEW_DAYS = 30
export const SAMPLE_LABEL = '30 days (sample)'
export const REAL_LABEL = 'Last 30 days'

/**
 * 30 days of made-up views ending today: 50 to 149 base views a day, weekends scaled down to 60 %
 * (sites like this one are busier on weekdays); visitors about 60 % of views.
 */
export function samplePageViews(now = Date.now(), random: () => number = Math.random, days = PAGE_VIEW_DAYS): DailyViews[] {
  const today = Math.floor(now / 86_400_000) * 86_400_000
  return Array.from({ length: days }, (_, i) => {
    const at = new Date(today - (days - 1 - i) * 86_400_000)
    const base = 50 + Math.floor(random() * 100)
    const weekend = at.getUTCDay() === 0 || at.getUTCDay() === 6
    const views = Math.round(base * (weekend ? 0.6 : 1))
    return { date: at.toISOString().slice(0, 10), views, visitors: Math.round(views * 0.6) }
  })
}

/** True when the answer has nothing to draw (no days, or no view on any day). */
export const hasNoViews = (data: readonly DailyViews[] | undefined) => !data || data.length === 0 || data.every((d) => d.views === 0)

/** 'Mar 4' from '2026-03-04' (the date is a UTC day). */
export function dayLabel(date: string): string {
  return new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })
}

const ACCENT = '#8b5cf6'
const PINK = '#ec4899'
const GRID = 'rgba(148, 163, 184, 0.15)'
const TICKS = '#94a3b8'

export function pageViewsChart(data: readonly DailyViews[], sample: boolean): { data: ChartData<'line'>; options: ChartOptions<'line'> } {
  return {
    data: {
      labels: data.map((d) => dayLabel(d.date)),
      datasets: [
        {
          label: sample ? 'Views (sample)' : 'Views',
          data: data.map((d) => d.views),
          borderColor: ACCENT,
          backgroundColor: 'rgba(139, 92, 246, 0.18)',
          fill: true,
          cubicInterpolationMode: 'monotone',
          pointRadius: 2,
          borderDash: sample ? [6, 4] : undefined,
        },
        {
          label: sample ? 'Visitors (sample)' : 'Visitors',
          data: data.map((d) => d.visitors),
          borderColor: PINK,
          backgroundColor: 'transparent',
          fill: false,
          cubicInterpolationMode: 'monotone',
          pointRadius: 2,
          borderDash: sample ? [6, 4] : undefined,
        },
      ],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: 'index', intersect: false },
      plugins: {
        legend: { display: true, labels: { color: TICKS, boxWidth: 12 } },
        tooltip: { enabled: true },
      },
      scales: {
        x: { grid: { color: GRID }, ticks: { color: TICKS, maxRotation: 0, autoSkip: true, maxTicksLimit: 8 } },
        y: { beginAtZero: true, grid: { color: GRID }, ticks: { color: TICKS, precision: 0 } },
      },
    },
  }
}
