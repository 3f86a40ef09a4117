// profile: the member's own account page (/profile). Changes that need the current password share
// the auth rate limit, so a session left open cannot be used to guess the password. E-mail and
// password changes are written to the audit log (who, when; the addresses for an e-mail change).
import { ChangeEmailSchema, ChangePasswordSchema, ChangeUsernameSchema, DeleteAccountSchema, LinkedSignInSchema, SessionIdSchema } from '~/shared/validators'
import { uncommonPasswordField } from '../auth/common-passwords'
import { offeredSignIns } from '../auth/sign-in-options'
import { config } from '../config'
import { recordAudit } from '../services/audit'
import { avatarOf, removeAvatar } from '../services/avatars'
import * as profile from '../services/profile'
import { listLinkedSignIns, type SignInSettings, unlinkSignIn } from '../services/sign-in'
import { createTRPCRouter, protectedProcedure, rateLimit } from '../trpc/init'
import { setAuthCookies, toPublicUser } from './auth'

const confirmedProcedure = protectedProcedure.use(rateLimit('auth'))

const signInSettings = (): SignInSettings => ({ providers: offeredSignIns(config), memberPasswords: config.LOCAL_LOGIN })

export const profileRouter = createTRPCRouter({
  updateUsername: confirmedProcedure
    .input(ChangeUsernameSchema)
    .mutation(async ({ ctx, input }) => ({ user: toPublicUser(await profile.changeUsername(ctx.db, ctx.user, input)) })),

  /** Answers a fresh token (and cookie) for this device: the old one carried the old address. */
  updateEmail: confirmedProcedure.input(ChangeEmailSchema).mutation(async ({ ctx, input }) => {
    const { token, user, previousEmail } = await profile.changeEmail(ctx.db, ctx.user, input, config.AUTH_SECRET, ctx.client.userAgent)
    await recordAudit(ctx.db, ctx.user, 'account.email', ctx.user.username, `${previousEmail} → ${user.email}`)
    setAuthCookies(ctx, token)
    return { token, user: toPublicUser(user) }
  }),

  updatePassword: confirmedProcedure.input(ChangePasswordSchema.extend({ newPassword: uncommonPasswordField })).mutation(async ({ ctx, input }) => {
    const { appKeysRevoked } = await profile.changePassword(ctx.db, ctx.user, input)
    await recordAudit(ctx.db, ctx.user, 'account.password', ctx.user.username, appKeysRevoked ? 'app keys revoked' : 'app keys kept')
    return { message: 'Password changed. Your other sessions have been logged out.', appKeysRevoked }
  }),

  delete: confirmedProcedure.input(DeleteAccountSchema).mutation(async ({ ctx, input }) => {
    const result = await profile.deleteAccount(ctx.db, ctx.user, input.currentPassword)
    removeAvatar(ctx.user.id)
    setAuthCookies(ctx, null)
    return result
  }),

  /** The member's own picture as a data: URL (a few dozen KB, shown in the account menu), or null.
   *  It is uploaded and removed at /api/user/avatar (http/avatar-upload.ts). */
  avatar: protectedProcedure.query(({ ctx }) => {
    const avatar = avatarOf(ctx.user.id)
    return { avatar: avatar ? `data:image/jpeg;base64,${Buffer.from(avatar.data).toString('base64')}` : null }
  }),

  sessions: createTRPCRouter({
    list: protectedProcedure.query(async ({ ctx }) => ({ sessions: await profile.listSessions(ctx.db, ctx.user) })),
    delete: protectedProcedure.input(SessionIdSchema).mutation(({ ctx, input }) => profile.revokeSession(ctx.db, ctx.user, input.id)),
  }),

  /** The provider accounts that sign this member in; unlinking one refuses (409) the last way in. */
  signIns: createTRPCRouter({
    list: protectedProcedure.query(({ ctx }) => listLinkedSignIns(ctx.db, ctx.user.id, signInSettings())),
    unlink: protectedProcedure.input(LinkedSignInSchema).mutation(async ({ ctx, input }) => {
      const result = await unlinkSignIn(ctx.db, ctx.user.id, input, signInSettings())
      await recordAudit(ctx.db, ctx.user, 'account.sign-in-unlink', ctx.user.username, `${result.providerName}, ${result.email ?? input.subject}`)
      return result
    }),
  }),
})
