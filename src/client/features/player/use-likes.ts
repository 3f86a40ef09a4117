// Likes keyed by track title: members' come from and go to the server; visitors'
// stay in this browser.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useSyncExternalStore } from 'react'
import { useAuth } from '~/client/features/auth/auth-store'
import { useTRPC } from '~/client/trpc'

export type LikeMap = Record<string, { liked: boolean; timestamp: number }>
const LOCAL_KEY = 'vibes:likes'
const EMPTY: LikeMap = {}

let localCache: LikeMap | null = null
const listeners = new Set<() => void>()

function readLocal(): LikeMap {
  if (typeof window === 'undefined') return EMPTY
  if (localCache) return localCache
  try {
    localCache = (JSON.parse(localStorage.getItem(LOCAL_KEY) ?? '{}') as LikeMap) ?? {}
  } catch {
    localCache = {}
  }
  return localCache
}

function writeLocal(title: string, liked: boolean) {
  localCache = { ...readLocal(), [title]: { liked, timestamp: Date.now() } }
  try {
    localStorage.setItem(LOCAL_KEY, JSON.stringify(localCache))
  } catch {}
  for (const l of listeners) l()
}

const subscribe = (l: () => void) => {
  listeners.add(l)
  return () => listeners.delete(l)
}

export function useLikes() {
  const auth = useAuth()
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const member = auth.ready && auth.isAuthenticated
  const options = trpc.playlist.likes.list.queryOptions(undefined, { enabled: member, staleTime: 60_000 })
  const server = useQuery(options)
  const local = useSyncExternalStore(subscribe, readLocal, () => EMPTY)
  const setLike = useMutation(trpc.playlist.likes.set.mutationOptions())

  const likes: LikeMap = member ? (server.data?.likes ?? EMPTY) : local

  const isLiked = useCallback((title: string) => likes[title]?.liked === true, [likes])

  /** Likes or unlikes a title (with the track's URL when it has one, so the like names that file). */
  const setLiked = useCallback(
    (title: string, liked: boolean, trackUrl?: string) => {
      if (!member) return writeLocal(title, liked)
      queryClient.setQueryData(options.queryKey, (old) => ({ likes: { ...(old?.likes ?? {}), [title]: { liked, timestamp: Date.now() } } }))
      setLike.mutate(
        { title, liked, trackUrl: trackUrl ?? null },
        {
          onError: () => void queryClient.invalidateQueries({ queryKey: options.queryKey }),
          // The Liked songs page reads the library's own list of them.
          onSettled: () => void queryClient.invalidateQueries({ queryKey: trpc.library.liked.queryKey() }),
        },
      )
    },
    [member, queryClient, options.queryKey, setLike, trpc],
  )

  /** Flips the like of a title; returns the new state. */
  const toggle = useCallback(
    (title: string, trackUrl?: string): boolean => {
      const liked = !(likes[title]?.liked === true)
      setLiked(title, liked, trackUrl)
      return liked
    },
    [likes, setLiked],
  )

  return { isLiked, toggle, setLiked, likes, member }
}
