// /login: e-mail and password; admins land on /admin, everyone else on /. Above them, one
// "Sign in with …" button per configured sign-in provider (plain links: the browser leaves for the
// provider). The server brings the browser back here with `signInError` (the reason's name) when a
// provider sign-in failed, or with `linkWith` when a provider's verified e-mail belongs to an
// account whose password must confirm the link. With LOCAL_LOGIN=off the password form shows only
// at /login?local (the admins' way back in).
import { useMutation, useQuery } from '@tanstack/react-query'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { authStore } from '~/client/features/auth/auth-store'
import { AccountForm, AuthCard, FailureAlert, linkClass } from '~/client/features/auth/auth-card'
import { errorMessage } from '~/client/global-errors'
import { useForm } from '~/client/hooks/use-form'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { inputClass, TextField } from '~/client/ui/text-field'
import { signInErrorMessage } from '~/shared/sign-in'
import { LoginSchema } from '~/shared/validators'
import { css, cx } from 'styled-system/css'
import { button } from '~/client/ui/button'

/** A return address is honoured only as a path on this site (never `//host` or a full URL). */
const safeReturnUrl = (v: unknown) => (typeof v === 'string' && /^\/(?![/\\])/.test(v) && v.length <= 500 ? v : undefined)

type LoginSearch = { returnUrl?: string; signInError?: string; linkWith?: string; local?: true }

export const Route = createFileRoute('/login')({
  validateSearch: (search: Record<string, unknown>): LoginSearch => {
    const returnUrl = safeReturnUrl(search.returnUrl)
    return {
      ...(returnUrl ? { returnUrl } : {}),
      ...(typeof search.signInError === 'string' ? { signInError: search.signInError } : {}),
      ...(typeof search.linkWith === 'string' ? { linkWith: search.linkWith } : {}),
      ...(search.local !== undefined ? { local: true as const } : {}),
    }
  },
  loader: ({ context }) => context.queryClient.ensureQueryData(context.trpc.auth.signInOptions.queryOptions()),
  head: () => ({ meta: [{ title: 'Login · Vibes' }] }),
  component: LoginPage,
})

function LoginPage() {
  const trpc = useTRPC()
  const navigate = useNavigate()
  // Checked again here: the router passes unvalidated search keys through from the root route.
  const search = Route.useSearch()
  const returnUrl = safeReturnUrl(search.returnUrl)
  const options = useQuery(trpc.auth.signInOptions.queryOptions()).data ?? { providers: [], localLogin: true }
  const linking = options.providers.find((p) => p.id === search.linkWith)
  const providerFailure = signInErrorMessage(search.signInError)
  const showPasswordForm = options.localLogin || search.local === true
  const form = useForm(LoginSchema, { email: '', password: '' })
  const [failure, setFailure] = useState<string | null>(null)
  const login = useMutation(
    trpc.auth.login.mutationOptions({
      onSuccess: ({ token, user }) => {
        authStore.login(token, user)
        // Where the user came from (e.g. the stats page's "Log In"), else admins to /admin, others to /.
        if (returnUrl) navigate({ href: returnUrl })
        else navigate({ to: user.isAdmin ? '/admin' : '/' })
      },
      onError: (error) => setFailure(errorMessage(error, 'Login failed. Please check your credentials.')),
    }),
  )

  return (
    <AuthCard
      title="Welcome back"
      subtitle="Log in to your Vibes account"
      footer={
        <>
          <Link to="/forgot-password" className={linkClass}>
            Forgot your password?
          </Link>
          {options.localLogin && (
            <span>
              Don't have an account?{' '}
              <Link to="/register" className={linkClass}>
                Register
              </Link>
            </span>
          )}
        </>
      }
    >
      {linking ? (
        <LinkAccountForm providerName={linking.name} failure={providerFailure} />
      ) : (
        <>
          {((providerFailure && !failure) || options.providers.length > 0) && (
            <div className={cx(providerList, options.providers.length === 0 ? css({ mb: '4' }) : undefined)}>
              {!failure && <FailureAlert message={providerFailure} />}
              {options.providers.map((p) => (
                <a key={p.id} href={`/auth/${p.id}/start`} className={button({ variant: 'outline', size: 'lg', block: true })}>
                  {`Sign in with ${p.name}`}
                </a>
              ))}
            </div>
          )}
          {options.providers.length > 0 && showPasswordForm && <p className={divider}>or</p>}
          {!showPasswordForm && (
            <p className={css({ mt: '4', fontSize: 'sm', color: 'fg.muted', textAlign: 'center' })}>
              <Link to="/login" search={{ local: true }} className={linkClass}>
                Admin sign-in with password
              </Link>
            </p>
          )}
        </>
      )}
      {showPasswordForm && !linking && (
        <AccountForm
          form={form}
          failure={failure}
          onValid={() => {
            setFailure(null)
            login.mutate(form.parsed())
          }}
        >
          <TextField label="Email" type="email" autoComplete="email" {...form.field('email')} />
          <TextField label="Password" type="password" autoComplete="current-password" revealable {...form.field('password')} />
          <Button type="submit" size="lg" block disabled={!form.isValid || login.isPending}>
            {login.isPending ? 'Logging in...' : 'Login'}
          </Button>
        </AccountForm>
      )}
    </AuthCard>
  )
}

const providerList = css({ display: 'flex', flexDirection: 'column', gap: '3' })
const divider = css({ my: '5', textAlign: 'center', fontSize: 'sm', color: 'fg.muted' })

/** The password that links a provider account to the existing account with its e-mail: a plain form post, answered by the server (/auth/link). */
function LinkAccountForm({ providerName, failure }: { providerName: string; failure: string | null }) {
  return (
    <form method="post" action="/auth/link" className={providerList}>
      <FailureAlert message={failure} />
      <p className={css({ fontSize: 'sm' })}>
        {`You already have an account here with the e-mail address ${providerName} gave us. Enter its password to link the two: from then on, “Sign in with ${providerName}” opens it.`}
      </p>
      <label className={css({ display: 'flex', flexDirection: 'column', gap: '1.5', fontSize: 'sm', fontWeight: 'medium' })}>
        Password
        <input name="password" type="password" autoComplete="current-password" required className={inputClass} />
      </label>
      <Button type="submit" size="lg" block>
        Link and sign in
      </Button>
      <Link to="/login" className={cx(linkClass, css({ fontSize: 'sm', textAlign: 'center' }))}>
        Cancel
      </Link>
    </form>
  )
}
