// The lyrics rules without a server: LRC as taggers and editors write it (every stamp form, several
// stamps on a line, an offset, a language, word stamps, CRLF and a BOM), plain text, and which
// synced line is sung at a moment with the offset applied.
import { describe, expect, test } from 'bun:test'
import { parseLyricsText } from '~/server/media/lrc'
import { activeLine, lineSeconds } from '~/shared/lyrics'

describe('parseLyricsText', () => {
  test('every stamp form: [mm:ss], [mm:ss.x], [mm:ss.xx], [mm:ss.xxx] and [mm:ss:xx]', () => {
    const parsed = parseLyricsText('[00:01]a\n[00:02.5]b\n[00:03.25]c\n[00:04.125]d\n[01:05:50]e')
    expect(parsed?.lines).toEqual([
      { start: 1000, value: 'a' },
      { start: 2500, value: 'b' },
      { start: 3250, value: 'c' },
      { start: 4125, value: 'd' },
      { start: 65500, value: 'e' },
    ])
  })

  test('a BOM, CRLF, ID tags, an offset, a language, word stamps and a line stamped twice', () => {
    const parsed = parseLyricsText('\uFEFF[ar:Ada]\r\n[la:ENG]\r\n[offset:-120]\r\n[00:10.00][00:02.00]<00:02.10>Chorus <00:02.50>line\r\n[00:05.00]\r\n')
    expect(parsed).toEqual({
      lang: 'eng',
      synced: true,
      offset: -120,
      lines: [
        { start: 2000, value: 'Chorus line' },
        { start: 5000, value: '' },
        { start: 10000, value: 'Chorus line' },
      ],
    })
  })

  test('plain text keeps blank lines between verses, not at the ends; a language from the source when the text names none', () => {
    expect(parseLyricsText('\n\nOne\n\nTwo\n\n', 'deu')).toEqual({
      lang: 'deu',
      synced: false,
      offset: 0,
      lines: [{ value: 'One' }, { value: '' }, { value: 'Two' }],
    })
    expect(parseLyricsText('Hi', 'not a code')?.lang).toBe('xxx')
  })

  test('nothing but tags or blanks is no lyrics', () => {
    expect(parseLyricsText('[ar:Ada]\n[ti:Song]\n\n')).toBeNull()
    expect(parseLyricsText('')).toBeNull()
  })
})

describe('activeLine and lineSeconds', () => {
  const lyrics = {
    lang: 'xxx',
    synced: true,
    offset: 500,
    lines: [
      { start: 1000, value: 'a' },
      { start: 3000, value: 'b' },
      { start: 3000, value: 'b again' },
    ],
  }

  test('the last line started, the offset showing each half a second sooner; none before the first', () => {
    expect(activeLine(lyrics, 0.4)).toBe(-1)
    expect(activeLine(lyrics, 0.5)).toBe(0)
    expect(activeLine(lyrics, 2.49)).toBe(0)
    expect(activeLine(lyrics, 2.5)).toBe(2)
    expect(activeLine(lyrics, 100)).toBe(2)
  })

  test('a line starts at its stamp less the offset, never before the track', () => {
    expect(lineSeconds(lyrics, lyrics.lines[1])).toBe(2.5)
    expect(lineSeconds({ ...lyrics, offset: 5000 }, lyrics.lines[0])).toBe(0)
  })
})
