// contact: the public contact form. Rate limited per client so it cannot flood the admin inbox.
import { ContactSchema } from '~/shared/validators'
import { createContactMessage } from '../services/contact'
import { createTRPCRouter, publicProcedure, rateLimit } from '../trpc/init'

export const contactRouter = createTRPCRouter({
  create: publicProcedure
    .use(rateLimit('contact'))
    .input(ContactSchema)
    .mutation(({ ctx, input }) => createContactMessage(ctx.db, input)),
})
