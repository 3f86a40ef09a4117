// File names that spell an Object.prototype property ('x.constructor', 'x.__proto__') are not
// media, and their MIME type is the default, never a function or an object from the prototype.
import { describe, expect, test } from 'bun:test'
import { isMediaFileName, mimeFromName } from '~/shared/player/mime'
import { decodeEntities, parsePlaylist } from '~/server/remote/parse'

const PROTOTYPE_NAMES = [
  'constructor',
  '__proto__',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
  '__defineGetter__',
  'propertyIsEnumerable',
  'toLocaleString',
]

describe('extension lookups use own properties only', () => {
  test('a file named after an Object.prototype property is not media', () => {
    for (const ext of PROTOTYPE_NAMES) {
      expect(isMediaFileName(`x.${ext}`)).toBe(false)
      expect(isMediaFileName(`x.${ext.toUpperCase()}`)).toBe(false)
    }
  })

  test('its MIME type is the default audio/mpeg, a string', () => {
    for (const ext of PROTOTYPE_NAMES) {
      const mime = mimeFromName(`x.${ext}`)
      expect(typeof mime).toBe('string')
      expect(mime).toBe('audio/mpeg')
    }
  })

  test('real media names still are media', () => {
    expect(isMediaFileName('Song.MP3')).toBe(true)
    expect(mimeFromName('clip.webm')).toBe('video/webm')
  })

  test('a remote listing linking such files lists none of them', () => {
    const html = PROTOTYPE_NAMES.map((e) => `<a href="x.${e}">x.${e}</a>`).join('\n') + '<a href="song.mp3">song.mp3</a>'
    const tracks = parsePlaylist(html, 'http://music.example/dir/', 'text/html')
    expect(tracks.map((t) => t.url)).toEqual(['http://music.example/dir/song.mp3'])
    // Playlists may list extension-less streams, but not prototype "extensions".
    const m3u = parsePlaylist(PROTOTYPE_NAMES.map((e) => `http://music.example/x.${e}`).join('\n'), 'http://music.example/list.m3u', 'audio/x-mpegurl')
    expect(m3u).toEqual([])
  })

  test('an entity named after a prototype property stays text', () => {
    expect(decodeEntities('a &constructor; &__proto__; &toString; b &amp; c')).toBe('a &constructor; &__proto__; &toString; b & c')
  })
})
