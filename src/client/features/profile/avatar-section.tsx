// /profile "Picture": the member's profile picture, shown in the account menu and to apps
// (getAvatar). The image's bytes go as they are to PUT /api/user/avatar, which checks them
// (PNG, JPEG or WebP, at most 2 MB) and keeps a 512 px square copy; DELETE removes it.
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useRef, useState } from 'react'
import { css } from 'styled-system/css'
import { authHeaders } from '~/client/http'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { formError } from '~/client/features/auth/auth-card'
import { ProfileSection, StatusLine, touchTarget, useOutcome } from './profile-section'

const MAX_BYTES = 2 * 1024 * 1024

export function AvatarSection({ initial }: { initial: string }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const avatar = useQuery(trpc.profile.avatar.queryOptions()).data?.avatar ?? null
  const input = useRef<HTMLInputElement>(null)
  const [busy, setBusy] = useState(false)
  const { failure, done, setFailure, setDone, clear } = useOutcome()

  async function send(method: 'PUT' | 'DELETE', body?: File) {
    clear()
    setBusy(true)
    try {
      const res = await fetch('/api/user/avatar', { method, body, headers: authHeaders(), credentials: 'same-origin' })
      const answer = (await res.json().catch(() => null)) as { success?: boolean; error?: string } | null
      if (!res.ok || !answer?.success) {
        setFailure(res.status === 413 ? 'The picture is larger than 2 MB.' : (answer?.error ?? 'Could not save your picture. Please try again.'))
        return
      }
      await queryClient.invalidateQueries({ queryKey: trpc.profile.avatar.queryKey() })
      setDone(method === 'PUT' ? 'Picture saved.' : 'Picture removed.')
    } catch {
      setFailure('Could not reach the server. Please try again.')
    } finally {
      setBusy(false)
    }
  }

  return (
    <ProfileSection id="picture" title="Picture" description="A PNG, JPEG or WebP image of at most 2 MB; it is cropped to a square.">
      <div className={css({ display: 'flex', alignItems: 'center', gap: '5', flexWrap: 'wrap' })}>
        {avatar ? (
          <img src={avatar} alt="You, as others see you" className={css({ w: '24', h: '24', borderRadius: 'full', objectFit: 'cover' })} />
        ) : (
          <span
            aria-hidden
            className={css({
              w: '24',
              h: '24',
              borderRadius: 'full',
              bgGradient: 'to-br',
              gradientFrom: 'accent.default',
              gradientTo: 'accent.pink',
              display: 'grid',
              placeItems: 'center',
              fontWeight: 'bold',
              color: 'white',
              fontSize: '3xl',
            })}
          >
            {initial}
          </span>
        )}
        <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap' })}>
          <input
            ref={input}
            type="file"
            accept="image/png,image/jpeg,image/webp"
            aria-label="Choose a picture"
            className={css({ display: 'none' })}
            onChange={(event) => {
              const file = event.currentTarget.files?.[0]
              event.currentTarget.value = ''
              if (!file) return
              if (file.size > MAX_BYTES) {
                clear()
                setFailure('The picture is larger than 2 MB.')
                return
              }
              void send('PUT', file)
            }}
          />
          <Button className={touchTarget} disabled={busy} onClick={() => input.current?.click()}>
            {avatar ? 'Change picture' : 'Upload picture'}
          </Button>
          {avatar && (
            <Button className={touchTarget} variant="outline" disabled={busy} onClick={() => void send('DELETE')}>
              Remove
            </Button>
          )}
        </div>
      </div>
      {failure && (
        <p role="alert" className={formError}>
          {failure}
        </p>
      )}
      <StatusLine message={done} />
    </ProfileSection>
  )
}
