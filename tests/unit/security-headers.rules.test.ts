// The security headers' rules: the HTML policy's directives, fresh nonces, HSTS only for an https
// APP_URL, HTML-only policies, a handler's own headers kept (the /media sandbox policy).
import { describe, expect, test } from 'bun:test'
import { contentSecurityPolicy, createNonce, CSP_NONCE_HEADER, PERMISSIONS_POLICY, securityHeaders } from '~/server/http/security-headers'

/** The policy as { directive: sources }. */
function directives(policy: string): Record<string, string[]> {
  return Object.fromEntries(
    policy.split(';').map((part) => {
      const [name, ...sources] = part.trim().split(/\s+/)
      return [name!, sources]
    }),
  )
}

/** A stand-in for the SSR app: answers with its content type and echoes the nonce it was handed. */
const app = (contentType: string, extra: Record<string, string> = {}) => ({
  seen: [] as Array<string | null>,
  async fetch(request: Request) {
    this.seen.push(request.headers.get(CSP_NONCE_HEADER))
    return new Response(`<script nonce="${request.headers.get(CSP_NONCE_HEADER)}"></script>`, { headers: { 'content-type': contentType, ...extra } })
  },
})

describe('the HTML policy', () => {
  const policy = directives(contentSecurityPolicy('abc123'))

  test('scripts run only by nonce, never by eval; no plugins, no <base>, no framing', () => {
    expect(policy['script-src']).toEqual(["'self'", "'nonce-abc123'", "'strict-dynamic'"])
    expect(contentSecurityPolicy('abc123')).not.toContain('unsafe-eval')
    expect(policy['script-src']).not.toContain("'unsafe-inline'")
    expect(policy['object-src']).toEqual(["'none'"])
    expect(policy['base-uri']).toEqual(["'none'"])
    expect(policy['frame-ancestors']).toEqual(["'none'"])
    expect(policy['default-src']).toEqual(["'self'"])
    expect(policy['form-action']).toEqual(["'self'"])
    expect(policy['connect-src']).toEqual(["'self'"])
  })

  test('style elements need the nonce; style attributes (Ark UI, SSR) are allowed', () => {
    expect(policy['style-src']).toEqual(["'self'", "'nonce-abc123'"])
    expect(policy['style-src-attr']).toEqual(["'unsafe-inline'"])
  })

  test('media and images from remote http(s) folders and chart feeds, blob: for local files', () => {
    expect(policy['media-src']).toEqual(["'self'", 'blob:', 'http:', 'https:'])
    expect(policy['img-src']).toEqual(["'self'", 'data:', 'blob:', 'http:', 'https:'])
  })
})

describe('nonces', () => {
  test('128 random bits, base64, different every time', () => {
    const nonces = new Set(Array.from({ length: 1000 }, createNonce))
    expect(nonces.size).toBe(1000)
    for (const n of nonces) expect(n).toMatch(/^[A-Za-z0-9+/]{22}==$/)
  })
})

describe('fetchPage and withSecurityHeaders', () => {
  const { fetchPage, withSecurityHeaders } = securityHeaders({ appUrl: 'http://localhost:3000' })

  test('the nonce handed to the app is the one in the header, fresh per request, and replaces a client-sent one', async () => {
    const page = app('text/html; charset=utf-8')
    const forged = new Request('http://localhost/', { headers: { [CSP_NONCE_HEADER]: 'chosen-by-attacker' } })
    const first = await fetchPage(page, forged)
    const second = await fetchPage(page, new Request('http://localhost/'))
    const [a, b] = page.seen
    expect(a).not.toBe('chosen-by-attacker')
    expect(a).not.toBe(b)
    expect(first.headers.get('content-security-policy')).toContain(`'nonce-${a}'`)
    expect(second.headers.get('content-security-policy')).toContain(`'nonce-${b}'`)
    expect(await first.text()).toBe(`<script nonce="${a}"></script>`)
    expect(first.headers.get('permissions-policy')).toBe(PERMISSIONS_POLICY)
  })

  test('JSON and other non-HTML answers get no page policy', async () => {
    const res = await fetchPage(app('application/json'), new Request('http://localhost/api/x'))
    expect(res.headers.has('content-security-policy')).toBe(false)
    expect(res.headers.has('permissions-policy')).toBe(false)
  })

  test('a policy the handler set is kept', async () => {
    const res = await fetchPage(app('text/html', { 'content-security-policy': "default-src 'none'; sandbox" }), new Request('http://localhost/'))
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox")
    const media = withSecurityHeaders(new Response('x', { headers: { 'content-type': 'text/html', 'content-security-policy': "default-src 'none'; sandbox" } }))
    expect(media.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox")
  })

  test('every answer gets nosniff, DENY and the referrer policy, even an immutable one; no HSTS over http', () => {
    const res = withSecurityHeaders(Response.redirect('http://localhost/login', 302))
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('x-frame-options')).toBe('DENY')
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    expect(res.headers.has('strict-transport-security')).toBe(false)
  })

  test('HSTS when APP_URL is https', () => {
    const https = securityHeaders({ appUrl: 'https://music.example.org' })
    expect(https.withSecurityHeaders(new Response('ok')).headers.get('strict-transport-security')).toBe('max-age=31536000')
  })
})

describe('Permissions-Policy', () => {
  test('denies the powerful features, keeps fullscreen and autoplay for the player', () => {
    for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb']) expect(PERMISSIONS_POLICY).toContain(`${feature}=()`)
    expect(PERMISSIONS_POLICY).toContain('fullscreen=(self)')
    expect(PERMISSIONS_POLICY).toContain('autoplay=(self)')
  })
})
