// Podcast feeds on loopback for the podcast tests and bench: the fixture feeds of
// tests/fixtures/podcasts (with {{BASE}} set to this server's address), real MP3 episodes made with
// ffmpeg, a feed of many episodes generated on the spot, and the hostile ones: a feed larger than
// the cap, one nginx sends at 20 bytes a second. nginx serves them with its ETag/Last-Modified
// (conditional requests answer 304) and byte ranges; /track/ep3.mp3 redirects to an episode file;
// /art.jpg is the shows' artwork, /fake-art.jpg an HTML page posing as one.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type ListingServer, openUp, startNginx } from './listing-servers'
import { ffmpeg, makeTone } from './media'

const FIXTURES = path.resolve(import.meta.dir, '../fixtures/podcasts')

export type PodcastFeeds = { server: ListingServer; url: (file: string) => string; root: string; stop: () => Promise<void> }

/** An RSS feed of `count` episodes (newest first), each pointing at the same real MP3. */
export function manyEpisodeFeed(base: string, count: number, title = 'Two Thousand Episodes'): string {
  const day = 86_400_000
  const items: string[] = []
  for (let n = count; n >= 1; n--) {
    items.push(`<item>
  <title>Episode ${n}: notes &amp; tones</title>
  <guid isPermaLink="false">many-${n}</guid>
  <pubDate>${new Date(Date.UTC(2020, 0, 1) + n * day).toUTCString()}</pubDate>
  <itunes:duration>00:00:20</itunes:duration>
  <description><![CDATA[<p>Show notes for episode <b>${n}</b>, with <a href="https://example.com/${n}">links</a>.</p>]]></description>
  <enclosure url="${base}/audio/ep1.mp3" length="0" type="audio/mpeg"/>
</item>`)
  }
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
<channel><title>${title}</title><itunes:author>Generator</itunes:author><description>Many episodes.</description>
${items.join('\n')}
</channel></rss>`
}

export async function startPodcastFeeds(host: string, extraFeeds: Record<string, (base: string) => string> = {}): Promise<PodcastFeeds> {
  const root = mkdtempSync(path.join(tmpdir(), 'vibes-podcasts-'))
  openUp(root)
  mkdirSync(path.join(root, 'audio'))
  makeTone(path.join(root, 'audio/ep1.mp3'), { title: 'Pilot', seconds: 20, frequency: 440 })
  makeTone(path.join(root, 'audio/ep2.mp3'), { title: 'Notes', seconds: 20, frequency: 660 })
  // The shows' artwork: a real 800×600 JPEG (show.xml, atom.xml name /art.jpg), and an HTML page
  // named like a picture (the feed of the artwork tests that point at it).
  ffmpeg('-f', 'lavfi', '-i', 'testsrc2=s=800x600', '-frames:v', '1', path.join(root, 'art.jpg'))
  writeFileSync(path.join(root, 'fake-art.jpg'), '<!doctype html><html><body><script>alert(1)</script></body></html>')
  const locations = [
    'location ~ \\.xml$ { types { application/rss+xml xml; } }',
    'location = /track/ep3.mp3 { return 302 /audio/ep1.mp3; }',
    'location = /slow.xml { types { application/rss+xml xml; } limit_rate 20; }',
  ].join('\n')
  const server = await startNginx(root, host, locations)
  const base = server.url
  for (const file of readdirSync(FIXTURES).filter((f) => f.endsWith('.xml')))
    writeFileSync(path.join(root, file), readFileSync(path.join(FIXTURES, file), 'utf8').replaceAll('{{BASE}}', base))
  // Larger than the 10 MB feed cap.
  writeFileSync(path.join(root, 'huge.xml'), `<rss><channel><title>Huge</title><!-- ${'x'.repeat(11 * 1024 * 1024)} --></channel></rss>`)
  // Well-formed, but nginx sends it at 20 bytes a second: past the feed time cap.
  writeFileSync(path.join(root, 'slow.xml'), readFileSync(path.join(root, 'show.xml'), 'utf8'))
  writeFileSync(path.join(root, 'many.xml'), manyEpisodeFeed(base, 2000))
  for (const [file, make] of Object.entries(extraFeeds)) writeFileSync(path.join(root, file), make(base))
  return {
    server,
    root,
    url: (file) => `${base}/${file}`,
    async stop() {
      await server.stop()
      rmSync(root, { recursive: true, force: true })
    },
  }
}
