// /profile "Scrobbling": connect ListenBrainz (paste the user token from listenbrainz.org/settings)
// and Last.fm (sent to Last.fm to allow Vibes; it sends the member back here with a token, which
// this section hands to the server once, then drops from the address bar). Each connection shows
// its account and a Disconnect. Below, what was sent lately and how it went; while something is
// waiting the list refreshes itself, so the member sees it go.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { AccountForm, FailureAlert } from '~/client/features/auth/auth-card'
import { errorMessage } from '~/client/global-errors'
import { useForm } from '~/client/hooks/use-form'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { TextField } from '~/client/ui/text-field'
import { relativeTime } from '~/shared/relative-time'
import { ListenBrainzConnectSchema } from '~/shared/validators'
import { css } from 'styled-system/css'
import { stack } from 'styled-system/patterns'
import { ListLoadState, ProfileSection, StatusLine, touchTarget, useOutcome } from './profile-section'
import { listClass, rowClass, rowMeta } from './sessions-section'

const SERVICE = { listenbrainz: 'ListenBrainz', lastfm: 'Last.fm' } as const
type Service = keyof typeof SERVICE
const linkClass = css({ color: 'accent.text', textDecoration: 'underline' })
const WAITING_REFRESH_MS = 3000

type Submission = { status: string; attempts: number; sentAt: number | null; lastError: string | null }

function submissionState(s: Submission): string {
  switch (s.status) {
    case 'sent':
      return `sent ${relativeTime(s.sentAt ?? Date.now())}`
    case 'queued':
      return s.attempts === 0 ? 'waiting to be sent' : `waiting: the service did not answer (tried ${s.attempts} ${s.attempts === 1 ? 'time' : 'times'})`
    case 'expired':
      return 'not sent: the track had ended'
    case 'cancelled':
      return 'not sent: disconnected'
    default:
      return `not sent: ${s.lastError ?? 'refused'}`
  }
}

export function ScrobblingSection() {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const status = useQuery({
    ...trpc.scrobbling.status.queryOptions(),
    refetchInterval: (query) => (query.state.data?.submissions.some((s) => s.status === 'queued') ? WAITING_REFRESH_MS : false),
  })
  const form = useForm(ListenBrainzConnectSchema, { token: '' })
  const { failure, done, setFailure, setDone, clear } = useOutcome()
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.scrobbling.status.queryKey() })
  const connected = (service: Service) => status.data?.connections.find((c) => c.service === service)

  const onConnected = ({ service, account }: { service: Service; account: string }) => {
    setDone(`${SERVICE[service]} connected as ${account}. What you play from now on is sent there.`)
    void refresh()
  }
  const connectListenBrainz = useMutation(
    trpc.scrobbling.connectListenBrainz.mutationOptions({
      onSuccess: (answer) => {
        form.reset()
        onConnected(answer)
      },
      onError: (error) => setFailure(errorMessage(error, 'Could not connect ListenBrainz. Please try again.')),
    }),
  )
  const startLastfm = useMutation(
    trpc.scrobbling.lastfmStart.mutationOptions({
      onSuccess: ({ url }) => window.location.assign(url),
      onError: (error) => setFailure(errorMessage(error, 'Could not start connecting Last.fm. Please try again.')),
    }),
  )
  const completeLastfm = useMutation(
    trpc.scrobbling.lastfmComplete.mutationOptions({
      onSuccess: onConnected,
      onError: (error) => setFailure(errorMessage(error, 'Could not connect Last.fm. Please try again.')),
    }),
  )
  const disconnect = useMutation(
    trpc.scrobbling.disconnect.mutationOptions({
      onSuccess: ({ service }) => {
        setDone(`${SERVICE[service]} disconnected. Nothing more is sent there.`)
        void refresh()
      },
      onError: (error) => setFailure(errorMessage(error, 'Could not disconnect. Please try again.')),
    }),
  )

  // Back from Last.fm's page: its token and our state are in the address, used once.
  const returned = useRef(false)
  useEffect(() => {
    if (returned.current) return
    const params = new URLSearchParams(window.location.search)
    const state = params.get('lastfm')
    const token = params.get('token')
    if (!state || !token) return
    returned.current = true
    window.history.replaceState(window.history.state, '', window.location.pathname)
    completeLastfm.mutate({ state, token })
  }, [completeLastfm])

  const disconnectButton = (service: Service) => (
    <Button
      variant="outline"
      className={touchTarget}
      aria-label={`Disconnect ${SERVICE[service]}`}
      disabled={disconnect.isPending}
      onClick={() => {
        clear()
        disconnect.mutate({ service })
      }}
    >
      Disconnect
    </Button>
  )
  const listenBrainz = connected('listenbrainz')
  const lastfm = connected('lastfm')

  return (
    <ProfileSection id="scrobbling" title="Scrobbling" description="Send what you play, here and in your apps, to ListenBrainz and Last.fm.">
      <ListLoadState list={status} loading="Loading scrobbling" failed="Could not load your scrobbling connections." />
      {status.data && (
        <ul className={listClass} aria-label="Scrobbling services">
          <li className={rowClass}>
            {listenBrainz ? (
              <>
                <div>
                  <p className={css({ fontWeight: 'medium' })}>ListenBrainz</p>
                  <p className={rowMeta}>
                    Connected as {listenBrainz.account} · {relativeTime(listenBrainz.connectedAt)}
                  </p>
                </div>
                {disconnectButton('listenbrainz')}
              </>
            ) : (
              <div className={stack({ gap: '2', flex: '1', minW: '0' })}>
                <p className={css({ fontWeight: 'medium' })}>ListenBrainz</p>
                <AccountForm
                  form={form}
                  failure={failure}
                  onValid={() => {
                    clear()
                    connectListenBrainz.mutate(form.parsed())
                  }}
                >
                  <div
                    className={css({
                      display: 'flex',
                      gap: '3',
                      flexDirection: { base: 'column', sm: 'row' },
                      alignItems: { base: 'stretch', sm: 'flex-end' },
                    })}
                  >
                    <TextField label="ListenBrainz user token" autoComplete="off" className={css({ flex: '1', minW: '0' })} {...form.field('token')} />
                    <Button type="submit" size="lg" className={touchTarget} disabled={connectListenBrainz.isPending}>
                      {connectListenBrainz.isPending ? 'Connecting...' : 'Connect ListenBrainz'}
                    </Button>
                  </div>
                </AccountForm>
                <p className={rowMeta}>
                  Your token is on{' '}
                  <a className={linkClass} href="https://listenbrainz.org/settings/" target="_blank" rel="noreferrer">
                    listenbrainz.org/settings
                  </a>
                  . It is kept encrypted.
                </p>
              </div>
            )}
          </li>
          <li className={rowClass}>
            <div>
              <p className={css({ fontWeight: 'medium' })}>Last.fm</p>
              <p className={rowMeta}>
                {lastfm
                  ? `Connected as ${lastfm.account} · ${relativeTime(lastfm.connectedAt)}`
                  : status.data.lastfmAvailable
                    ? 'You allow Vibes on Last.fm, then come back here.'
                    : 'Last.fm is not set up on this server.'}
              </p>
            </div>
            {lastfm
              ? disconnectButton('lastfm')
              : status.data.lastfmAvailable && (
                  <Button
                    variant="outline"
                    className={touchTarget}
                    disabled={startLastfm.isPending || completeLastfm.isPending}
                    onClick={() => {
                      clear()
                      startLastfm.mutate()
                    }}
                  >
                    {completeLastfm.isPending ? 'Connecting...' : 'Connect Last.fm'}
                  </Button>
                )}
          </li>
        </ul>
      )}
      {/* The ListenBrainz form shows the failure while it is on screen. */}
      {listenBrainz && <FailureAlert message={failure} />}
      <StatusLine message={done} />
      {status.data && status.data.submissions.length > 0 && (
        <div className={stack({ gap: '1' })}>
          <h3 className={css({ fontWeight: 'semibold' })}>Recently sent</h3>
          <ul className={listClass} aria-label="Recently sent">
            {status.data.submissions.map((s) => (
              <li key={s.id} className={rowClass}>
                <div className={css({ minW: '0' })}>
                  <p className={css({ fontWeight: 'medium', overflowWrap: 'anywhere' })}>
                    {s.title} <span className={rowMeta}>by {s.artist}</span>
                  </p>
                  <p className={rowMeta}>
                    {SERVICE[s.service]} · {s.kind === 'listen' ? 'listen' : 'now playing'} · {submissionState(s)}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        </div>
      )}
    </ProfileSection>
  )
}
