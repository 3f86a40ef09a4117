// A real SMTP server (smtp-server) on loopback that keeps every message it receives. `delayMs`
// holds back its greeting, as a slow or distant mail server does.
import { SMTPServer } from 'smtp-server'

export type Received = { to: string[]; raw: string }

export async function startSmtp(options: { delayMs?: number } = {}) {
  const messages: Received[] = []
  const waiters: Array<() => void> = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onConnect(_session, callback) {
      setTimeout(callback, options.delayMs ?? 0)
    },
    onData(stream, session, callback) {
      let raw = ''
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')))
      stream.on('end', () => {
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address), raw })
        for (const w of waiters.splice(0)) w()
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.server.address() as { port: number }).port
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    /** The message addressed to `to`, waiting for it to arrive. */
    async waitFor(to: string, timeoutMs = 10_000): Promise<Received> {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const found = messages.find((m) => m.to.includes(to))
        if (found) return found
        if (Date.now() > deadline) throw new Error(`no mail arrived for ${to}`)
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, 200)
          waiters.push(() => {
            clearTimeout(t)
            resolve()
          })
        })
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
