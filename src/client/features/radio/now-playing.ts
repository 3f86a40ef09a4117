// What the current station plays now: its ICY title, read by the server (a few seconds old at
// most) and asked again every 15 s while a station is the current track.
import { useQuery } from '@tanstack/react-query'
import { useTRPC } from '~/client/trpc'
import { stationIdOf, type Track } from '~/shared/player/track'

const POLL_MS = 15_000

/** The station's current title; null when it sends none, undefined while not known yet or not a station. */
export function useStationTitle(track: Track | undefined, playing: boolean): string | null | undefined {
  const trpc = useTRPC()
  const id = track ? stationIdOf(track.url) : null
  const query = useQuery(trpc.radio.nowPlaying.queryOptions({ id: id ?? '' }, { enabled: !!id && playing, refetchInterval: POLL_MS, staleTime: POLL_MS / 2 }))
  return id ? query.data?.title : undefined
}
