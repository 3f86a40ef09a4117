// Cover blobs made in the browser from local files (read-tags.ts) follow the server's rule: typed
// by the picture's bytes, and only JPEG, PNG, GIF or WebP. A blob: URL typed text/html would open
// as a page of our origin. music-metadata runs the same in Bun, so no browser is needed.
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { readTags } from '~/client/features/player/read-tags'
import { makeToneWithPicture } from '../helpers/media'

const dir = mkdtempSync(path.join(tmpdir(), 'vibes-read-tags-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const PNG_1X1 = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='), (c) =>
  c.charCodeAt(0),
)
const HTML = new TextEncoder().encode('<html><script>alert(localStorage.token)</script></html>')

function localFile(name: string, mime: string, picture: Uint8Array) {
  const file = path.join(dir, name)
  makeToneWithPicture(file, mime, picture, { title: name, seconds: 1 })
  return new File([new Uint8Array(readFileSync(file))], name, { type: 'audio/mpeg' })
}

describe('cover art read in the browser', () => {
  test('an HTML picture (tagged text/html or lying image/jpeg) gives no cover at all', async () => {
    for (const mime of ['text/html', 'image/jpeg']) {
      const tags = await readTags(localFile(`html-as-${mime.replace('/', '-')}.mp3`, mime, HTML))
      expect(tags.title).toBe(`html-as-${mime.replace('/', '-')}.mp3`)
      expect(tags.cover).toBeUndefined()
    }
  })

  test('a real image is typed by its bytes, whatever the tag says', async () => {
    const tags = await readTags(localFile('png-as-html.mp3', 'text/html', PNG_1X1))
    expect(tags.cover?.type).toBe('image/png')
    expect(new Uint8Array(await tags.cover!.arrayBuffer())).toEqual(PNG_1X1)
  })
})
