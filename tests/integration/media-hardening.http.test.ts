// /media against hostile files, over HTTP against the built server: an audio file whose embedded
// "cover" is an HTML page with a script (served from our origin it would read the admin's token
// from localStorage), the headers every /media answer carries whatever its status, and library
// files named after Object.prototype properties ('x.constructor', 'x.__proto__'), and a file
// that changes on disk between two requests (the handler keeps resolved paths, file-lookup.ts).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { signMediaUrl } from '~/server/media/sign'
import { api, createMember } from '../helpers/api'
import { makeTone, makeToneWithPicture } from '../helpers/media'
import { startServer, type TestServer } from '../helpers/server'

const SECRET = 'media-hardening-secret-'.repeat(3)
const HTML_COVER =
  '<!DOCTYPE html><html><head><title>pwned</title></head><body><script>document.title = "pwned:" + localStorage.getItem("token")</script></body></html>'
// The 1×1 PNG a tag might carry honestly, but labelled text/html.
const PNG_1X1 = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='), (c) =>
  c.charCodeAt(0),
)

let server: TestServer
let member: Awaited<ReturnType<typeof createMember>>

beforeAll(async () => {
  server = await startServer({ AUTH_SECRET: SECRET })
  const lib = path.join(server.mediaRoot, 'hostile')
  const enc = new TextEncoder()
  makeToneWithPicture(path.join(lib, '1 Html Cover.mp3'), 'text/html', enc.encode(HTML_COVER), { title: 'Html Cover' })
  makeToneWithPicture(path.join(lib, '2 Lying Jpeg.mp3'), 'image/jpeg', enc.encode(HTML_COVER), { title: 'Lying Jpeg' })
  makeToneWithPicture(
    path.join(lib, '3 Svg Cover.mp3'),
    'image/svg+xml',
    enc.encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    { title: 'Svg Cover' },
  )
  makeToneWithPicture(path.join(lib, '4 Png As Html.mp3'), 'text/html', PNG_1X1, { title: 'Png As Html' })
  makeTone(path.join(lib, '5 Honest.mp3'), { title: 'Honest', cover: true })
  const odd = path.join(server.mediaRoot, 'odd names')
  makeTone(path.join(odd, 'real.mp3'), { title: 'Real' })
  for (const name of ['x.constructor', 'x.__proto__', 'x.toString', 'x.hasOwnProperty', 'x.valueOf']) writeFileSync(path.join(odd, name), 'not media')
  member = await createMember(server.url)
})
afterAll(async () => {
  await server?.stop()
})

const coverUrl = (rel: string) => `${server.url}${signMediaUrl(SECRET, rel, 'cover')}`
const fileUrl = (rel: string) => `${server.url}${signMediaUrl(SECRET, rel)}`

async function folderTracks(label: string, folderPath: string) {
  const created = await api(server.url, 'POST', '/user/folders', { token: member.token, body: { label, path: folderPath } })
  expect(created.status).toBe(201)
  const listed = await api(server.url, 'GET', `/user/folders/${created.body.data.id}/playlist`, { token: member.token })
  expect(listed.status).toBe(200)
  return listed.body.data as Array<{ url: string; title: string; mime: string; cover?: string }>
}

describe('cover art is only ever an image', () => {
  test('a picture tagged text/html (or lying image/jpeg, or SVG) is never served: 404, not HTML', async () => {
    for (const rel of ['hostile/1 Html Cover.mp3', 'hostile/2 Lying Jpeg.mp3', 'hostile/3 Svg Cover.mp3']) {
      for (const method of ['GET', 'HEAD']) {
        const res = await fetch(coverUrl(rel), { method })
        const body = await res.text()
        expect({ rel, method, status: res.status }).toEqual({ rel, method, status: 404 })
        expect(res.headers.get('content-type') ?? '').not.toMatch(/html|svg|xml/i)
        expect(body).not.toContain('<script>')
        if (method === 'GET') expect(body).toBe('No cover art')
      }
    }
  })

  test('the type comes from the bytes: a PNG tagged text/html is served as image/png', async () => {
    const res = await fetch(coverUrl('hostile/4 Png As Html.mp3'))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/png')
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG_1X1)
  })

  test('the folder listing offers a cover URL only for files whose picture is an image', async () => {
    const tracks = await folderTracks('Hostile', '/hostile')
    const byTitle = Object.fromEntries(tracks.map((t) => [t.title, t]))
    expect(Object.keys(byTitle).sort()).toEqual(['Honest', 'Html Cover', 'Lying Jpeg', 'Png As Html', 'Svg Cover'])
    for (const title of ['Html Cover', 'Lying Jpeg', 'Svg Cover']) expect(byTitle[title].cover).toBeUndefined()
    for (const title of ['Honest', 'Png As Html']) {
      const res = await fetch(`${server.url}${byTitle[title].cover}`)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('image/png')
    }
  })
})

describe('every /media answer carries nosniff and a sandboxing CSP', () => {
  const CSP = "default-src 'none'; sandbox"
  test('files, covers, ranges, conditional, HEAD and every error status', async () => {
    const file = fileUrl('hostile/5 Honest.mp3')
    const first = await fetch(file)
    await first.arrayBuffer()
    const etag = first.headers.get('etag')!
    const expired = `${server.url}${signMediaUrl(SECRET, 'hostile/5 Honest.mp3', 'file', Math.floor(Date.now() / 1000) - 3 * 86_400)}`
    const cases: Array<[string, Promise<Response>, number]> = [
      ['file', Promise.resolve(first), 200],
      ['HEAD', fetch(file, { method: 'HEAD' }), 200],
      ['range', fetch(file, { headers: { range: 'bytes=0-9' } }), 206],
      ['unsatisfiable range', fetch(file, { headers: { range: 'bytes=99999999-' } }), 416],
      ['not modified', fetch(file, { headers: { 'if-none-match': etag } }), 304],
      ['cover', fetch(coverUrl('hostile/5 Honest.mp3')), 200],
      ['no cover', fetch(coverUrl('hostile/1 Html Cover.mp3')), 404],
      ['unsigned', fetch(`${server.url}/media/hostile/5%20Honest.mp3`), 403],
      ['expired', fetch(expired), 403],
      ['missing file', fetch(fileUrl('hostile/nothing here.mp3')), 404],
      ['bad path', fetch(`${server.url}/media/a%2Fb.mp3`), 400],
      ['wrong method', fetch(file, { method: 'POST' }), 405],
    ]
    for (const [name, pending, status] of cases) {
      const res = await pending
      if (!res.bodyUsed) await res.arrayBuffer()
      expect({ name, status: res.status }).toEqual({ name, status })
      expect({ name, nosniff: res.headers.get('x-content-type-options') }).toEqual({ name, nosniff: 'nosniff' })
      expect({ name, csp: res.headers.get('content-security-policy') }).toEqual({ name, csp: CSP })
    }
  })
})

describe('file names that spell Object.prototype properties', () => {
  test('a library folder holding x.constructor and x.__proto__ lists only its media file', async () => {
    const tracks = await folderTracks('Odd Names', '/odd names')
    expect(tracks.map((t) => t.title)).toEqual(['Real'])
    expect(tracks[0].mime).toBe('audio/mpeg')
    for (const t of tracks) expect(typeof t.mime).toBe('string')
  })

  test('/media serves such a file, if asked with a valid signature, as audio/mpeg, never a function', async () => {
    const res = await fetch(fileUrl('odd names/x.constructor'))
    await res.arrayBuffer()
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('audio/mpeg')
  })
})

describe('a file that changes on disk between two requests', () => {
  test('is answered as it is now: replaced, turned into a link out of the library, or under a folder that has', async () => {
    const dir = path.join(server.mediaRoot, 'changing')
    const outside = mkdtempSync(path.join(tmpdir(), 'vibes-outside-'))
    try {
      mkdirSync(dir)
      writeFileSync(path.join(outside, 'a.mp3'), 'CANARY outside the library')
      writeFileSync(path.join(dir, 'a.mp3'), 'first version')
      const first = await fetch(fileUrl('changing/a.mp3'))
      expect(await first.text()).toBe('first version')
      const ranged = await fetch(fileUrl('changing/a.mp3'), { headers: { range: 'bytes=0-4' } })
      expect(await ranged.text()).toBe('first')

      writeFileSync(path.join(dir, 'a.mp3.part'), 'the second, longer version')
      renameSync(path.join(dir, 'a.mp3.part'), path.join(dir, 'a.mp3'))
      const second = await fetch(fileUrl('changing/a.mp3'))
      expect(await second.text()).toBe('the second, longer version')
      expect(second.headers.get('etag')).not.toBe(first.headers.get('etag'))

      unlinkSync(path.join(dir, 'a.mp3'))
      symlinkSync(path.join(outside, 'a.mp3'), path.join(dir, 'a.mp3'))
      const linked = await fetch(fileUrl('changing/a.mp3'))
      expect(linked.status).toBe(404)
      expect(await linked.text()).not.toContain('CANARY')

      unlinkSync(path.join(dir, 'a.mp3'))
      writeFileSync(path.join(dir, 'a.mp3'), 'third version')
      expect(await (await fetch(fileUrl('changing/a.mp3'))).text()).toBe('third version')
      rmSync(dir, { recursive: true })
      symlinkSync(outside, dir)
      const folderLinked = await fetch(fileUrl('changing/a.mp3'))
      expect(folderLinked.status).toBe(404)
      expect(await folderLinked.text()).not.toContain('CANARY')
    } finally {
      rmSync(dir, { recursive: true, force: true })
      rmSync(outside, { recursive: true, force: true })
    }
  })
})
