// The dashboard's Library panel (the scan runs on demand from the admin console, which shows its
// progress): what the index holds, when the last scan finished, a progress bar while a
// scan runs, and the two ways to start one. Status is polled every second only while scanning,
// so an idle dashboard costs nothing.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { css } from 'styled-system/css'
import { errorMessage } from '~/client/global-errors'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { toast } from '~/client/ui/toaster'
import { relativeTime } from '~/shared/relative-time'
import { formatCount } from './format'
import { ErrorBox, Panel, PanelLoading, Stat } from './panel'
import { stack } from 'styled-system/patterns'
import { mutedText } from '~/client/ui/text'

const SCAN_POLL_MS = 1000
const target = css({ minH: '11' })

export function LibraryScanPanel() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const statusKey = trpc.library.scan.status.queryKey()
  const status = useQuery(trpc.library.scan.status.queryOptions(undefined, { refetchInterval: (query) => (query.state.data?.scanning ? SCAN_POLL_MS : false) }))
  const start = useMutation(
    trpc.library.scan.start.mutationOptions({
      // The answer is the status right after the request: scanning, so polling begins at once.
      onSuccess: (next) => queryClient.setQueryData(statusKey, next),
      onError: (error) => toast({ title: 'Failed to start the scan', description: errorMessage(error, 'An unexpected error occurred'), type: 'error' }),
    }),
  )
  const s = status.data
  const busy = start.isPending || s?.scanning === true
  return (
    <Panel
      title="Library"
      actions={
        <>
          <Button className={target} disabled={busy} onClick={() => start.mutate({})}>
            Scan library
          </Button>
          <Button className={target} variant="outline" disabled={busy} onClick={() => start.mutate({ full: true })}>
            Full rescan
          </Button>
        </>
      }
    >
      {status.isPending ? (
        <PanelLoading label="Loading library status" />
      ) : !s ? (
        <ErrorBox message={errorMessage(status.error, 'Could not load the library status')} />
      ) : (
        <div className={stack({ gap: '4' })}>
          <div className={css({ display: 'grid', gridTemplateColumns: 'repeat(3, minmax(0, 1fr))', gap: '4' })}>
            <Stat label="Tracks" value={formatCount(s.tracks)} />
            <Stat label="Albums" value={formatCount(s.albums)} />
            <Stat label="Artists" value={formatCount(s.artists)} />
          </div>
          {s.scanning ? (
            <div className={css({ display: 'flex', flexDirection: 'column', gap: '2', fontSize: 'sm' })}>
              <span>{s.total ? `Scanning… ${formatCount(s.scanned)} of ${formatCount(s.total)} files` : 'Scanning… looking for files'}</span>
              {/* Until the file list is known the bar is indeterminate: no value rather than 0 of 0. */}
              <div
                role="progressbar"
                aria-label="Library scan"
                aria-valuenow={s.total ? s.scanned : undefined}
                aria-valuemin={0}
                aria-valuemax={s.total || undefined}
                className={css({ h: '2', bg: 'bg.subtle', borderRadius: 'full', overflow: 'hidden' })}
              >
                <div className={css({ h: 'full', bg: 'accent.default' })} style={{ width: `${s.total ? Math.min(100, (100 * s.scanned) / s.total) : 0}%` }} />
              </div>
            </div>
          ) : (
            <p className={mutedText()}>
              {s.lastScanAt ? (
                <>
                  Last scan <time dateTime={s.lastScanAt}>{relativeTime(s.lastScanAt)}</time>
                </>
              ) : (
                'Not scanned yet'
              )}
            </p>
          )}
        </div>
      )}
    </Panel>
  )
}
