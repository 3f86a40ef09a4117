// A small REST client for tests: JSON in, the envelope out, plus status and headers.
export type ApiResult<T = any> = { status: number; body: T; headers: Headers }

export async function api<T = any>(
  base: string,
  method: string,
  path: string,
  opts: { body?: unknown; token?: string; headers?: Record<string, string>; raw?: string } = {},
): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { ...opts.headers }
  if (opts.body !== undefined || opts.raw !== undefined) headers['content-type'] ??= 'application/json'
  if (opts.token) headers.authorization = `Bearer ${opts.token}`
  const res = await fetch(`${base}/api${path}`, { method, headers, body: opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)) })
  const text = await res.text()
  let body: any = text
  try {
    body = JSON.parse(text)
  } catch {}
  return { status: res.status, body, headers: res.headers }
}

let counter = 0
/** Signs up and logs in a fresh member; returns its token and user. */
export async function createMember(base: string, overrides: { username?: string; email?: string; password?: string } = {}) {
  const n = `${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`
  const input = {
    username: overrides.username ?? `user${n}`,
    email: overrides.email ?? `user${n}@example.com`,
    password: overrides.password ?? 'tune-in-2-vibes',
  }
  const signup = await api(base, 'POST', '/auth/signup', { body: input })
  if (signup.status !== 201) throw new Error(`signup failed: ${signup.status} ${JSON.stringify(signup.body)}`)
  const login = await api(base, 'POST', '/auth/login', { body: { email: input.email, password: input.password } })
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.body)}`)
  return { ...input, token: login.body.data.token as string, user: login.body.data.user as { id: string; username: string; email: string; isAdmin: boolean } }
}

export const ADMIN = { email: 'admin@vibes.test', password: 'admin-password' }
export const adminEnv = { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password }

export async function loginAdmin(base: string) {
  const login = await api(base, 'POST', '/auth/login', { body: ADMIN })
  if (login.status !== 200) throw new Error(`admin login failed: ${JSON.stringify(login.body)}`)
  return login.body.data.token as string
}
