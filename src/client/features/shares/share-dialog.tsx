// "Share link": a dialog that makes a share link for an album, a library track or one of the
// member's playlists, with how long it
// works (1 day, 7 days, 30 days or never; 7 days first) and an optional description, then shows the
// link with a copy button. The link is listed on /profile "Shared links" from then on.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { css } from 'styled-system/css'
import { formError } from '~/client/features/auth/auth-card'
import { errorMessage } from '~/client/global-errors'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { codeBox } from '~/client/ui/code-box'
import { Modal, modalFooter } from '~/client/ui/modal'
import { SelectField } from '~/client/ui/select'
import { TextField } from '~/client/ui/text-field'
import { DEFAULT_SHARE_EXPIRY, SHARE_DESCRIPTION_MAX, SHARE_EXPIRIES, SHARE_EXPIRY_LABELS, type ShareExpiry } from '~/shared/validators/shares'
import { shareUrl } from './shared-links-section'

const EXPIRY_OPTIONS = SHARE_EXPIRIES.map((value) => ({ value, label: SHARE_EXPIRY_LABELS[value] }))

export type ShareTargetChoice = { kind: 'album'; id: string } | { kind: 'track'; id: string } | { kind: 'playlist'; id: string }

export function ShareDialog({
  target,
  name,
  open,
  onOpenChange,
}: {
  target: ShareTargetChoice
  name: string
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const [expiresIn, setExpiresIn] = useState<ShareExpiry>(DEFAULT_SHARE_EXPIRY)
  const [description, setDescription] = useState('')
  const [link, setLink] = useState<string | null>(null)
  const [copied, setCopied] = useState<string | null>(null)
  const create = useMutation(
    trpc.shares.create.mutationOptions({
      onSuccess: (share) => {
        setLink(shareUrl(share.path))
        void queryClient.invalidateQueries({ queryKey: trpc.shares.list.queryKey() })
      },
    }),
  )
  const close = (next: boolean) => {
    onOpenChange(next)
    if (!next) {
      setLink(null)
      setCopied(null)
      setDescription('')
      setExpiresIn(DEFAULT_SHARE_EXPIRY)
      create.reset()
    }
  }
  const copy = async () => {
    if (!link) return
    try {
      await navigator.clipboard.writeText(link)
      setCopied('Link copied to the clipboard.')
    } catch {
      setCopied('Could not copy: select the link and copy it yourself.')
    }
  }

  return (
    <Modal
      open={open}
      onOpenChange={close}
      busy={create.isPending}
      title={`Share "${name}"`}
      description="Anyone with the link can play it, without an account."
    >
      {link ? (
        <>
          <code data-testid="share-link" className={codeBox}>
            {link}
          </code>
          <p role="status" aria-live="polite" className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            {copied}
          </p>
          <div className={modalFooter}>
            <Button variant="outline" onClick={() => close(false)}>
              Done
            </Button>
            <Button onClick={() => void copy()}>Copy link</Button>
          </div>
        </>
      ) : (
        <form
          className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}
          onSubmit={(e) => {
            e.preventDefault()
            create.mutate({ target, expiresIn, description: description || undefined })
          }}
        >
          <SelectField label="Link expires after" options={EXPIRY_OPTIONS} value={expiresIn} onValueChange={(v) => setExpiresIn(v as ShareExpiry)} />
          <TextField label="Description (optional)" maxLength={SHARE_DESCRIPTION_MAX} value={description} onValueChange={setDescription} />
          {create.isError && (
            <p role="alert" className={formError}>
              {errorMessage(create.error, 'Could not create the link. Please try again.')}
            </p>
          )}
          <div className={modalFooter}>
            <Button variant="outline" onClick={() => close(false)} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? 'Creating...' : 'Create link'}
            </Button>
          </div>
        </form>
      )}
    </Modal>
  )
}
