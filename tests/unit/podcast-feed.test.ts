// Reading podcast feeds (src/server/podcasts/feed.ts): show notes become plain text whatever
// HTML they carry, durations in every form feeds write them, and the refusals a hostile or
// broken feed gets.
import { describe, expect, test } from 'bun:test'
import { durationSeconds, FeedError, parseFeed, plainText } from '~/server/podcasts/feed'

describe('plainText', () => {
  test.each([
    ['<p>Hello <b>there</b></p><script>alert(1)</script>', 'Hello there'],
    ['<style>p{}</style>Text<!-- hidden -->', 'Text'],
    ['One<br>Two</p><p>Three', 'One\nTwo\nThree'],
    // No angle bracket survives, even an escaped one: some apps show descriptions as HTML.
    ['&lt;b&gt; stays text &amp; &nbsp;x', 'b stays text & x'],
    ['A <a href="javascript:alert(1)" onclick="x()">link</a>', 'A link'],
    ['cut off <img src=x onerror=alert(1)', 'cut off'],
  ])('%p → %p', (html, text) => {
    expect(plainText(html)).toBe(text)
  })
})

describe('durationSeconds', () => {
  test.each([
    ['1:02:03', 3723],
    ['62:03', 3723],
    ['3723', 3723],
    ['3723.6', 3724],
    ['', 0],
    ['about an hour', 0],
    ['1:2:3:4', 0],
  ])('%p → %p', (raw, seconds) => {
    expect(durationSeconds(raw)).toBe(seconds)
  })
})

describe('parseFeed refusals', () => {
  test('an entity declaration, malformed XML and a page that is no feed each name the problem', () => {
    expect(() => parseFeed('<!DOCTYPE r [<!ENTITY a "b">]><rss/>', 'http://x/')).toThrow(FeedError)
    expect(() => parseFeed('<rss><channel><title>x</channel></rss>', 'http://x/')).toThrow(/not well-formed XML/)
    expect(() => parseFeed('<html><body>Hi</body></html>', 'http://x/')).toThrow('That address does not serve a podcast feed (RSS or Atom)')
  })

  test('relative enclosure URLs resolve against the feed; other schemes and items without audio are left out', () => {
    const feed = parseFeed(
      `<rss><channel><title>T</title>
        <item><title>a</title><enclosure url="/a.mp3"/></item>
        <item><title>b</title><enclosure url="javascript:alert(1)"/></item>
        <item><title>c</title></item>
      </channel></rss>`,
      'https://example.com/feeds/show.xml',
    )
    expect(feed.episodes.map((e) => [e.title, e.enclosureUrl, e.guid])).toEqual([['a', 'https://example.com/a.mp3', 'https://example.com/a.mp3']])
  })
})
