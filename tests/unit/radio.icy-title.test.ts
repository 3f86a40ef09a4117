// Reading a station's title from one ICY metadata block: the StreamTitle field as stations write
// it (apostrophes inside, other fields after, NUL padding), UTF-8 or Latin-1, Icecast's numeric
// character references; an empty or missing title is none.
import { describe, expect, test } from 'bun:test'
import { streamTitleOf } from '~/server/radio/icy'

const block = (text: string, encoding: 'utf8' | 'latin1' = 'utf8') => {
  const bytes = Buffer.from(text, encoding)
  const padded = new Uint8Array(Math.ceil(bytes.length / 16) * 16)
  padded.set(bytes)
  return padded
}

describe('streamTitleOf', () => {
  test('the title, with apostrophes inside and other fields after', () => {
    expect(streamTitleOf(block("StreamTitle='Guns N' Roses - Don't Cry';StreamUrl='http://x/';"))).toBe("Guns N' Roses - Don't Cry")
    expect(streamTitleOf(block("StreamTitle='Nina Simone - Feeling Good';"))).toBe('Nina Simone - Feeling Good')
  })

  test('UTF-8, Latin-1 and numeric character references', () => {
    expect(streamTitleOf(block("StreamTitle='Sigur Rós - Hoppípolla';"))).toBe('Sigur Rós - Hoppípolla')
    expect(streamTitleOf(block("StreamTitle='Café del Mar';", 'latin1'))).toBe('Café del Mar')
    expect(streamTitleOf(block("StreamTitle='Artist &#8211; Song';"))).toBe('Artist – Song')
  })

  test('an empty or missing title is none', () => {
    expect(streamTitleOf(block("StreamTitle='';"))).toBeNull()
    expect(streamTitleOf(block("StreamUrl='http://x/';"))).toBeNull()
    expect(streamTitleOf(new Uint8Array(16))).toBeNull()
  })
})
