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
        {
          start: 2000,
          value: 'Chorus line',
          cues: [
            { start: 2100, end: 2500, value: 'Chorus ', byteStart: 0, byteEnd: 6 },
            { start: 2500, end: 5000, value: 'line', byteStart: 7, byteEnd: 10 },
          ],
        },
        { start: 5000, value: '' },
        // The last line: nothing says when its last word ends, so no word has an end.
        {
          start: 10000,
          value: 'Chorus line',
          cues: [
            { start: 10100, value: 'Chorus ', byteStart: 0, byteEnd: 6 },
            { start: 10500, value: 'line', byteStart: 7, byteEnd: 10 },
          ],
        },
      ],
    })
  })

  test('word stamps (enhanced LRC): UTF-8 byte offsets into the line, text before the first stamp at the line time, an end stamp, overlaps put in order', () => {
    const parsed = parseLyricsText('[00:01.00]  Oh <00:01.50>눈을 <00:02.00>뜬<00:02.40>\n[00:03.00]<00:03.50>late <00:03.20>early\n[00:04.00]plain')
    expect(parsed?.lines).toEqual([
      {
        start: 1000,
        value: 'Oh 눈을 뜬',
        cues: [
          { start: 1000, end: 1500, value: 'Oh ', byteStart: 0, byteEnd: 2 },
          { start: 1500, end: 2000, value: '눈을 ', byteStart: 3, byteEnd: 9 },
          { start: 2000, end: 2400, value: '뜬', byteStart: 10, byteEnd: 12 },
        ],
      },
      {
        start: 3000,
        value: 'late early',
        // A stamp earlier than the word before it starts when that word ends: no two words overlap.
        cues: [
          { start: 3500, end: 3500, value: 'late ', byteStart: 0, byteEnd: 4 },
          { start: 3500, end: 4000, value: 'early', byteStart: 5, byteEnd: 9 },
        ],
      },
      { start: 4000, value: 'plain' },
    ])
    const value = 'Oh 눈을 뜬'
    for (const cue of parsed?.lines[0].cues ?? [])
      expect(
        Buffer.from(value)
          .subarray(cue.byteStart, cue.byteEnd + 1)
          .toString(),
      ).toBe(cue.value)
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
