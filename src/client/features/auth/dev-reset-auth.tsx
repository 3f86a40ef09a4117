// On localhost only: a development button that clears the auth state after a confirmation.
import { useEffect, useState } from 'react'
import { css } from 'styled-system/css'
import { authHeaders } from '~/client/http'
import { authStore } from './auth-store'

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

export function DevResetAuth() {
  const [local, setLocal] = useState(false)
  useEffect(() => setLocal(LOCAL_HOSTS.has(window.location.hostname)), [])
  if (!local) return null
  return (
    <button
      type="button"
      onClick={async () => {
        if (!window.confirm('Reset the stored authentication state? You will be signed out.')) return
        await fetch('/api/auth/logout', { method: 'POST', headers: authHeaders() }).catch(() => {})
        authStore.clear()
      }}
      className={css({
        fontSize: 'xs',
        px: '2',
        py: '1',
        borderRadius: 'md',
        bg: 'bg.muted',
        color: 'fg.muted',
        cursor: 'pointer',
        _hover: { color: 'fg.default' },
      })}
    >
      Reset Auth
    </button>
  )
}
