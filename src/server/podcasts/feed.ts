// Reading a podcast feed (RSS 2.0 with the iTunes tags, or Atom) into a channel and its episodes.
// The XML parser never expands entities: a feed that declares its own (<!ENTITY>, the
// "billion laughs" shape) is refused before parsing, and the five XML entities and numeric
// references are decoded by us. Every description is reduced to plain text here, so no feed's
// HTML or script ever reaches a page or an app.
import { decodeHTML, decodeXML } from 'entities'
import { XMLParser, XMLValidator } from 'fast-xml-parser'

export class FeedError extends Error {}

export type FeedEpisode = {
  guid: string
  title: string
  publishedAt: Date | null
  durationSec: number
  description: string
  enclosureUrl: string
  enclosureType: string
  enclosureSize: number
}

export type Feed = {
  title: string
  author: string
  description: string
  artworkUrl: string | null
  siteUrl: string | null
  episodes: FeedEpisode[]
}

/** Episodes kept of one feed (the newest, in the feed's order). */
export const MAX_FEED_EPISODES = 5000
const MAX_TEXT = 10_000
const MAX_TITLE = 500

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  processEntities: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) => name === 'item' || name === 'entry' || name === 'link' || name === 'enclosure',
})

type Node = Record<string, unknown>

/** The text of an element that may carry attributes ({ '#text': … }) or repeat (first one). */
function textOf(value: unknown): string {
  if (Array.isArray(value)) return textOf(value[0])
  if (typeof value === 'string') return decodeXML(value)
  if (typeof value === 'number') return String(value)
  if (value && typeof value === 'object' && '#text' in value) return textOf((value as Node)['#text'])
  return ''
}

const attr = (value: unknown, name: string): string => {
  const node = Array.isArray(value) ? value[0] : value
  return node && typeof node === 'object' ? textOf((node as Node)[`@_${name}`]) : ''
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

/** HTML (or plain text) as plain text: scripts and styles dropped with their content, tags removed, entities decoded, blank runs folded. */
export function plainText(html: string, max = MAX_TEXT): string {
  const text = html
    .replace(/<(script|style|iframe|object|template)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<\s*(br|\/p|\/div|\/li|\/h\d)\b[^>]*>/gi, '\n')
    .replace(/<[^>]*>/g, ' ')
    // A tag left open at the end ("<a href=…" cut off) would otherwise survive as text.
    .replace(/<[a-z!/][^<]*$/i, ' ')
  // No angle bracket survives, even an escaped one: some apps show descriptions as HTML.
  const decoded = decodeHTML(text)
    .replace(/[<>]/g, ' ')
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/ *\n[\s]*/g, '\n')
    .trim()
  return clip(decoded, max)
}

/** "1:02:03", "62:03", "3723" or "3723.5" as whole seconds; 0 when unreadable. */
export function durationSeconds(raw: string): number {
  const parts = raw.trim().split(':')
  if (!parts.length || parts.length > 3 || parts.some((p) => !/^\d+(\.\d+)?$/.test(p))) return 0
  const seconds = parts.reduce((total, p) => total * 60 + Number(p), 0)
  return Number.isFinite(seconds) && seconds < 7 * 86_400 ? Math.round(seconds) : 0
}

function dateOf(raw: string): Date | null {
  if (!raw) return null
  const ms = Date.parse(raw)
  return Number.isFinite(ms) ? new Date(ms) : null
}

/** An http(s) URL resolved against the feed's own, or null. */
function urlOf(raw: string, base: string): string | null {
  if (!raw) return null
  try {
    const url = new URL(raw.trim(), base)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null
  } catch {
    return null
  }
}

const sizeOf = (raw: string) => {
  const n = Number(raw)
  return Number.isSafeInteger(n) && n > 0 ? n : 0
}

function rssEpisode(item: Node, base: string): FeedEpisode | null {
  const enclosure = item.enclosure
  const enclosureUrl = urlOf(attr(enclosure, 'url'), base)
  if (!enclosureUrl) return null
  const title = plainText(textOf(item.title) || textOf(item['itunes:title']), MAX_TITLE)
  const guid = textOf(item.guid) || enclosureUrl
  return {
    guid: clip(guid, 1000),
    title: title || 'Untitled episode',
    publishedAt: dateOf(textOf(item.pubDate) || textOf(item['dc:date'])),
    durationSec: durationSeconds(textOf(item['itunes:duration'])),
    description: plainText(textOf(item['content:encoded']) || textOf(item.description) || textOf(item['itunes:summary'])),
    enclosureUrl,
    enclosureType: clip(attr(enclosure, 'type') || 'audio/mpeg', 100),
    enclosureSize: sizeOf(attr(enclosure, 'length')),
  }
}

function atomEpisode(entry: Node, base: string): FeedEpisode | null {
  const links = (Array.isArray(entry.link) ? entry.link : []) as Node[]
  const enclosure = links.find((l) => attr(l, 'rel') === 'enclosure')
  const enclosureUrl = enclosure ? urlOf(attr(enclosure, 'href'), base) : null
  if (!enclosureUrl) return null
  return {
    guid: clip(textOf(entry.id) || enclosureUrl, 1000),
    title: plainText(textOf(entry.title), MAX_TITLE) || 'Untitled episode',
    publishedAt: dateOf(textOf(entry.published) || textOf(entry.updated)),
    durationSec: durationSeconds(textOf(entry['itunes:duration'])),
    description: plainText(textOf(entry.content) || textOf(entry.summary)),
    enclosureUrl,
    enclosureType: clip(attr(enclosure, 'type') || 'audio/mpeg', 100),
    enclosureSize: sizeOf(attr(enclosure, 'length')),
  }
}

/** Episodes with the same guid twice keep the first (the feed's newest, by convention). */
function unique(episodes: FeedEpisode[]): FeedEpisode[] {
  const seen = new Set<string>()
  return episodes.filter((e) => !seen.has(e.guid) && seen.add(e.guid)).slice(0, MAX_FEED_EPISODES)
}

/** Reads a feed's XML; `url` is where it was fetched from (relative links resolve against it). */
export function parseFeed(xml: string, url: string): Feed {
  if (/<!ENTITY/i.test(xml)) throw new FeedError('The feed declares its own XML entities (<!ENTITY>), which are refused: podcast feeds never need them')
  const valid = XMLValidator.validate(xml)
  if (valid !== true) throw new FeedError(`The feed is not well-formed XML (line ${valid.err.line}: ${valid.err.msg})`)
  const doc = parser.parse(xml) as Node
  const rss = doc.rss as Node | undefined
  const channel = (rss && typeof rss === 'object' ? rss.channel : undefined) as Node | undefined
  if (channel && typeof channel === 'object') {
    const items = (Array.isArray(channel.item) ? channel.item : []) as Node[]
    const image = channel.image as Node | undefined
    return {
      title: plainText(textOf(channel.title), MAX_TITLE) || 'Untitled podcast',
      author: plainText(textOf(channel['itunes:author']) || textOf(channel.managingEditor), MAX_TITLE),
      description: plainText(textOf(channel.description) || textOf(channel['itunes:summary'])),
      artworkUrl: urlOf(attr(channel['itunes:image'], 'href'), url) ?? urlOf(textOf(image?.url), url),
      siteUrl: urlOf(textOf(channel.link), url),
      episodes: unique(items.flatMap((item) => rssEpisode(item, url) ?? [])),
    }
  }
  const feed = doc.feed as Node | undefined
  if (feed && typeof feed === 'object') {
    const entries = (Array.isArray(feed.entry) ? feed.entry : []) as Node[]
    const links = (Array.isArray(feed.link) ? feed.link : []) as Node[]
    const site = links.find((l) => !attr(l, 'rel') || attr(l, 'rel') === 'alternate')
    const author = feed.author as Node | undefined
    return {
      title: plainText(textOf(feed.title), MAX_TITLE) || 'Untitled podcast',
      author: plainText(textOf(author?.name), MAX_TITLE),
      description: plainText(textOf(feed.subtitle)),
      artworkUrl: urlOf(textOf(feed.logo) || textOf(feed.icon) || attr(feed['itunes:image'], 'href'), url),
      siteUrl: site ? urlOf(attr(site, 'href'), url) : null,
      episodes: unique(entries.flatMap((entry) => atomEpisode(entry, url) ?? [])),
    }
  }
  throw new FeedError('That address does not serve a podcast feed (RSS or Atom)')
}
