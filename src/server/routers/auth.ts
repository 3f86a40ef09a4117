// auth: sign-up, login, logout, password reset, and who-am-I.
import { ForbiddenError } from '../errors'
import { z } from 'zod'
import { uncommonPasswordField } from '../auth/common-passwords'
import { ForgotPasswordSchema, LoginSchema, ResetPasswordSchema, SignupSchema } from '~/shared/validators'
import { config } from '../config'
import { offeredSignIns } from '../auth/sign-in-options'
import type { SignInOptions } from '~/shared/sign-in'
import { authCookies } from '../http/cookies'
import { recordAudit } from '../services/audit'
import * as auth from '../services/auth'
import { createTRPCRouter, protectedProcedure, publicProcedure, rateLimit, loginThrottled } from '../trpc/init'
import type { Context } from '../trpc/context'

const LOCAL_SIGN_UP_OFF = 'Sign-up with a password is turned off here. Please use your sign-in provider.'

export const toPublicUser = (u: { id: string; username: string; email: string; isAdmin: boolean; createdAt: Date }) => ({
  id: u.id,
  username: u.username,
  email: u.email,
  isAdmin: u.isAdmin,
  createdAt: u.createdAt.toISOString(),
})

/** Sets (or, with null, clears) the session cookie and its XSRF partner. */
export function setAuthCookies(ctx: Context, token: string | null) {
  for (const line of authCookies(token, ctx.secure)) ctx.resHeaders.append('set-cookie', line)
}

export const authRouter = createTRPCRouter({
  signup: publicProcedure
    .use(rateLimit('auth'))
    .input(SignupSchema.extend({ password: uncommonPasswordField }))
    .mutation(async ({ ctx, input }) => {
      if (!config.LOCAL_LOGIN) throw new ForbiddenError(LOCAL_SIGN_UP_OFF)
      return toPublicUser(await auth.signup(ctx.db, input))
    }),

  login: publicProcedure
    .use(rateLimit('auth'))
    .input(LoginSchema)
    .use(loginThrottled)
    .mutation(async ({ ctx, input }) => {
      const { token, user } = await auth.login(ctx.db, input, config.AUTH_SECRET, ctx.client.userAgent, { adminsOnly: !config.LOCAL_LOGIN })
      setAuthCookies(ctx, token)
      return { token, user: toPublicUser(user) }
    }),

  // A stale or missing token still gets its cookies cleared, but only when the request shows it
  // comes from our pages or an API client (the rule of every cookie write): another site's form
  // must not sign a member out. Our cookies without the XSRF header are refused; a post without
  // any credentials (a cross-site form: SameSite=Lax keeps the cookies back) clears nothing.
  logout: publicProcedure.input(z.strictObject({}).optional()).mutation(async ({ ctx }) => {
    const proof = ctx.writeProof
    if (proof === 'unproven') throw new ForbiddenError('Logout needs the X-XSRF-TOKEN header')
    if (ctx.user) await auth.logout(ctx.db, ctx.user)
    if (proof === 'proven') setAuthCookies(ctx, null)
    return { loggedOut: true }
  }),

  forgotPassword: publicProcedure
    .use(rateLimit('auth'))
    .input(ForgotPasswordSchema)
    .mutation(({ ctx, input }) => {
      auth.requestPasswordReset(ctx.db, input.email, config.APP_URL)
      return { message: 'If an account exists for that e-mail, a reset link is on its way.' }
    }),

  resetPassword: publicProcedure
    .use(rateLimit('auth'))
    .input(ResetPasswordSchema.extend({ password: uncommonPasswordField }))
    .mutation(async ({ ctx, input }) => {
      const user = await auth.resetPassword(ctx.db, input.token, input.password)
      await recordAudit(ctx.db, user, 'account.password-reset', user.username, 'sessions and app keys ended')
      return { message: 'Password has been reset' }
    }),

  /** What the login page offers: the "Sign in with …" buttons, and whether passwords sign in. */
  signInOptions: publicProcedure.query(
    (): SignInOptions => ({
      providers: offeredSignIns(config),
      localLogin: config.LOCAL_LOGIN,
    }),
  ),

  /** The session check behind the user guard: 401 unless the session is valid. */
  session: protectedProcedure.query(({ ctx }) => ({ user: toPublicUser(ctx.user) })),

  /** GET /health/auth: never 401, just says whether the caller is signed in. */
  status: publicProcedure.query(({ ctx }) => ({ authenticated: ctx.user !== null, user: ctx.user ? toPublicUser(ctx.user) : null })),
})
