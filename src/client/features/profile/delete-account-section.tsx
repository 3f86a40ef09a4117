// /profile "Delete account": a danger box whose button opens a confirmation asking for the current
// password. The server refuses the last admin; anyone else is signed out and sent home.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { AccountForm } from '~/client/features/auth/auth-card'
import { authStore } from '~/client/features/auth/auth-store'
import { errorMessage } from '~/client/global-errors'
import { useForm } from '~/client/hooks/use-form'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { Modal, modalFooter } from '~/client/ui/modal'
import { TextField } from '~/client/ui/text-field'
import { toast } from '~/client/ui/toaster'
import { DeleteAccountSchema } from '~/shared/validators'
import { dangerButton, ProfileSection, touchTarget } from './profile-section'

export function DeleteAccountSection() {
  const [open, setOpen] = useState(false)
  return (
    <ProfileSection
      id="delete-account"
      title="Delete account"
      danger
      description="Deletes your account, folders, likes, sessions and app keys. Your past plays stay in the statistics without your name. This cannot be undone."
    >
      <div>
        <button type="button" className={dangerButton} onClick={() => setOpen(true)}>
          Delete account
        </button>
      </div>
      <DeleteAccountDialog open={open} onOpenChange={setOpen} />
    </ProfileSection>
  )
}

function DeleteAccountDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const form = useForm(DeleteAccountSchema, { currentPassword: '' })
  const [failure, setFailure] = useState<string | null>(null)
  const remove = useMutation(
    trpc.profile.delete.mutationOptions({
      onSuccess: () => {
        authStore.clear()
        queryClient.clear()
        toast({ title: 'Account deleted', description: 'Your account has been deleted.', type: 'success' })
        void navigate({ to: '/' })
      },
      onError: (error) => setFailure(errorMessage(error, 'Could not delete your account. Please try again.')),
    }),
  )
  const close = (next: boolean) => {
    if (!next) {
      form.reset()
      setFailure(null)
    }
    onOpenChange(next)
  }
  return (
    <Modal
      open={open}
      onOpenChange={close}
      role="alertdialog"
      busy={remove.isPending}
      title="Delete your account?"
      description="Enter your current password to confirm. This cannot be undone."
    >
      <AccountForm
        form={form}
        failure={failure}
        onValid={() => {
          setFailure(null)
          remove.mutate(form.parsed())
        }}
      >
        <TextField label="Current password" type="password" autoComplete="current-password" revealable {...form.field('currentPassword')} />
        <div className={modalFooter}>
          <Button variant="outline" size="lg" className={touchTarget} disabled={remove.isPending} onClick={() => close(false)}>
            Cancel
          </Button>
          <button type="submit" className={dangerButton} disabled={remove.isPending}>
            {remove.isPending ? 'Deleting...' : 'Delete my account'}
          </button>
        </div>
      </AccountForm>
    </Modal>
  )
}
