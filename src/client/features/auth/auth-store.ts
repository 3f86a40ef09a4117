// Client auth state: the token lives in localStorage under 'token', is cleaned
// and checked, and is sent as the Authorization header. Login and logout are announced as window
// events so other features (player, lists) can reset themselves.
import { useSyncExternalStore } from 'react'
import { cleanToken, readToken } from '~/shared/auth-token'
import type { PublicUser } from '~/shared/api-types'

export const TOKEN_KEY = 'token'
export const LOGIN_EVENT = 'auth:login'
export const LOGOUT_EVENT = 'auth:logout'

export type AuthUser = { id: string; email: string; username?: string; isAdmin: boolean }
export type AuthState = { isAuthenticated: boolean; isAdmin: boolean; user: AuthUser | null; token: string | null; ready: boolean }

const signedOut: AuthState = { isAuthenticated: false, isAdmin: false, user: null, token: null, ready: false }
let state: AuthState = signedOut
// What the server rendered with: React hydrates against this, even for parts of the page (lazy
// routes) that hydrate after the stored token has already signed the user in.
let serverState: AuthState = signedOut
const listeners = new Set<() => void>()

function set(next: AuthState) {
  state = next
  for (const l of listeners) l()
}

export const authStore = {
  get: () => state,
  subscribe(listener: () => void) {
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
  /** Server render and first client render: what the session cookie said. */
  seed(user: PublicUser | null) {
    if (state.ready) return
    state = user ? { ...fromUser(user, null), ready: false } : signedOut
    serverState = state
  },
  getServerSnapshot: () => serverState,
  /** On start-up in the browser: the stored token wins; else the server's check decides. */
  hydrate(serverUser: PublicUser | null) {
    const raw = safeStorage()?.getItem(TOKEN_KEY)
    if (raw) {
      const token = cleanToken(raw, true)
      const payload = readToken(token)
      if (payload) {
        if (token !== raw) safeStorage()?.setItem(TOKEN_KEY, token)
        const username = serverUser?.id === payload.userId ? serverUser.username : undefined
        set({
          isAuthenticated: true,
          isAdmin: payload.isAdmin,
          user: { id: payload.userId, email: payload.email, username, isAdmin: payload.isAdmin },
          token,
          ready: true,
        })
        return
      }
      safeStorage()?.removeItem(TOKEN_KEY)
    }
    set(serverUser ? { ...fromUser(serverUser, null), ready: true } : { ...signedOut, ready: true })
  },
  login(token: string, user: PublicUser) {
    safeStorage()?.setItem(TOKEN_KEY, token)
    set({ ...fromUser(user, token), ready: true })
    window.dispatchEvent(new CustomEvent(LOGIN_EVENT, { detail: { userId: user.id } }))
  },
  /** The same member with a changed username or e-mail (and, for an e-mail, the fresh token that says it). */
  update(user: PublicUser, token?: string) {
    if (token) safeStorage()?.setItem(TOKEN_KEY, token)
    set({ ...fromUser(user, token ?? state.token), ready: true })
  },
  /** Clears the token and everything stored for the user, then tells the app. */
  clear() {
    const storage = safeStorage()
    storage?.removeItem(TOKEN_KEY)
    // Stored lists and user state go with the user (keys are prefixed by the features).
    if (storage) for (const key of Object.keys(storage)) if (key.startsWith('vibes:user:')) storage.removeItem(key)
    set({ ...signedOut, ready: true })
    window.dispatchEvent(new CustomEvent(LOGOUT_EVENT))
  },
}

function fromUser(user: PublicUser, token: string | null): AuthState {
  return {
    isAuthenticated: true,
    isAdmin: user.isAdmin,
    user: { id: user.id, email: user.email, username: user.username, isAdmin: user.isAdmin },
    token,
    ready: true,
  }
}

function safeStorage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage
  } catch {
    return null
  }
}

export function useAuth(): AuthState {
  return useSyncExternalStore(authStore.subscribe, authStore.get, authStore.getServerSnapshot)
}
