// The contact form (/contact): touched-state
// validation from the shared ContactSchema, idle → submitting → success (form cleared) or error.
import { useMutation } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { css } from 'styled-system/css'
import { httpStatusOf, isNetworkError } from '~/client/global-errors'
import { useForm } from '~/client/hooks/use-form'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { TextField } from '~/client/ui/text-field'
import { ContactSchema } from '~/shared/validators'
import { charCount } from '~/shared/validators/contact'
import { stack } from 'styled-system/patterns'

export const CONTACT_SUCCESS = "Thank you for your message! We'll get back to you as soon as possible."
export const CONTACT_FAILED = 'Failed to submit the form. Please try again.'
export const CONTACT_UNEXPECTED = 'An unexpected error occurred. Please try again later.'
const MESSAGE_MAX = 500

type Status = 'idle' | 'submitting' | 'success' | 'error'

/** The server answered with a failure → "Failed to submit…"; anything else → "unexpected". */
function failureText(error: unknown): string {
  if (!isNetworkError(error) && httpStatusOf(error) !== undefined) return CONTACT_FAILED
  return CONTACT_UNEXPECTED
}

export function ContactForm() {
  const trpc = useTRPC()
  const form = useForm(ContactSchema, { fullName: '', email: '', message: '' })
  const [failure, setFailure] = useState<string | null>(null)
  const send = useMutation(
    trpc.contact.create.mutationOptions({
      onSuccess: () => form.reset(),
      onError: (error) => setFailure(failureText(error)),
    }),
  )
  const status: Status = send.isPending ? 'submitting' : send.isSuccess ? 'success' : failure ? 'error' : 'idle'
  const formRef = useRef<HTMLFormElement>(null)
  const successRef = useRef<HTMLParagraphElement>(null)
  const [focusInvalid, setFocusInvalid] = useState(0)
  // The form empties on success, so the send button goes inert under the keyboard user's focus:
  // hand focus to the thank-you text instead of dropping it on <body>.
  useEffect(() => {
    if (status === 'success') successRef.current?.focus()
  }, [status])
  // After an invalid submit has marked every field touched, take the user to the first problem.
  useEffect(() => {
    if (focusInvalid) formRef.current?.querySelector<HTMLElement>('[aria-invalid=true]')?.focus()
  }, [focusInvalid])
  const inert = !form.isValid || send.isPending

  return (
    <form
      ref={formRef}
      noValidate
      aria-label="Contact form"
      data-status={status}
      className={stack({ gap: '4' })}
      onSubmit={(e) => {
        e.preventDefault()
        if (send.isPending) return
        setFailure(null)
        if (!form.isValid) {
          form.touchAll()
          setFocusInvalid((n) => n + 1)
          return
        }
        send.reset()
        send.mutate(form.parsed())
      }}
    >
      {status === 'success' && (
        <p
          ref={successRef}
          tabIndex={-1}
          role="status"
          className={css({ outline: 'none', bg: 'success.muted', color: 'success.fg', borderRadius: 'lg', px: '4', py: '3', fontSize: 'sm' })}
        >
          {CONTACT_SUCCESS}
        </p>
      )}
      {status === 'error' && failure && (
        <p role="alert" className={css({ bg: 'danger.muted', color: 'danger.fg', borderRadius: 'lg', px: '4', py: '3', fontSize: 'sm' })}>
          {failure}
        </p>
      )}
      <TextField
        label="Your Name"
        name="fullName"
        autoComplete="name"
        placeholder="Jane Doe"
        value={form.values.fullName}
        onValueChange={(v) => form.set('fullName', v)}
        onBlur={() => form.touch('fullName')}
        error={form.error('fullName')}
      />
      <TextField
        label="Your Email"
        type="email"
        name="email"
        autoComplete="email"
        placeholder="you@example.com"
        value={form.values.email}
        onValueChange={(v) => form.set('email', v)}
        onBlur={() => form.touch('email')}
        error={form.error('email')}
      />
      <TextField
        label="Your Message"
        name="message"
        multiline
        placeholder="What's on your mind? Questions, ideas, a bug you found…"
        value={form.values.message}
        onValueChange={(v) => form.set('message', v)}
        onBlur={() => form.touch('message')}
        error={form.error('message')}
        hint={`${charCount(form.values.message.trim())}/${MESSAGE_MAX} characters`}
      />
      {/* aria-disabled, not disabled: it reads and looks disabled until the form is valid and while
          sending, but keeps keyboard focus; pressing it while invalid shows every field's problem. */}
      <Button type="submit" size="lg" block aria-disabled={inert}>
        {send.isPending ? 'Sending...' : 'Send Message'}
      </Button>
    </form>
  )
}
