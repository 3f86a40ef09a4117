import { describe, expect, test } from 'bun:test'
import { trackIdOf } from '~/client/features/player/track-identity'
import { toTracks } from '~/shared/player/server-tracks'
import { folderNameFromUrl, inferArtist, inferYear, parseFileName } from '~/shared/player/file-name'
import { extensionOf, isMediaFileName, MEDIA_EXTENSIONS, mimeFromName } from '~/shared/player/mime'
import { displayTitle, fileNameFromUrl, formatTime, isVideo, makeTrack, normalizeTrackUrl } from '~/shared/player/track'

describe('MIME map', () => {
  test('every accepted extension maps to its type; unknown gives audio/mpeg', () => {
    const expected: Record<string, string> = {
      mp3: 'audio/mpeg',
      wav: 'audio/wav',
      m4a: 'audio/mp4',
      aac: 'audio/aac',
      ogg: 'audio/ogg',
      flac: 'audio/flac',
      wma: 'audio/x-ms-wma',
      mp4: 'video/mp4',
      webm: 'video/webm',
      ogv: 'video/ogg',
      mov: 'video/quicktime',
      avi: 'video/x-msvideo',
      mkv: 'video/x-matroska',
    }
    for (const [ext, mime] of Object.entries(expected)) expect(mimeFromName(`Song.${ext.toUpperCase()}`)).toBe(mime)
    expect(MEDIA_EXTENSIONS.sort()).toEqual(Object.keys(expected).sort())
    expect(mimeFromName('notes.txt')).toBe('audio/mpeg')
    expect(mimeFromName('no-extension')).toBe('audio/mpeg')
  })

  test('only media extensions are accepted from a local folder', () => {
    expect(isMediaFileName('a/b/track.flac')).toBe(true)
    expect(isMediaFileName('cover.jpg')).toBe(false)
    expect(isMediaFileName('.mp3')).toBe(false)
    expect(extensionOf('dir.with.dots/file')).toBe('')
  })
})

describe('file names and titles', () => {
  test("'Artist - Title' and 'Artist-Title' split into artist and title", () => {
    expect(parseFileName('Miles Davis - So What.mp3')).toEqual({ artist: 'Miles Davis', title: 'So What' })
    expect(parseFileName('Nina_Simone-Feeling_Good.flac')).toEqual({ artist: 'Nina Simone', title: 'Feeling Good' })
    expect(parseFileName('Jay-Z - Empire State of Mind.m4a')).toEqual({ artist: 'Jay-Z', title: 'Empire State of Mind' })
    expect(parseFileName('music/01 Intro.mp3')).toEqual({ artist: '', title: '01 Intro' })
    expect(parseFileName('- leading.mp3')).toEqual({ artist: '', title: '- leading' })
  })

  test("artist inferred from a title 'a - b' or 'a: b'; year from 19xx/20xx", () => {
    expect(inferArtist('Queen: Bohemian Rhapsody')).toEqual({ artist: 'Queen', title: 'Bohemian Rhapsody' })
    expect(inferArtist('Adele - Hello')).toEqual({ artist: 'Adele', title: 'Hello' })
    expect(inferArtist('Plain title')).toBeNull()
    expect(inferYear('Live at Wembley 1986')).toBe(1986)
    expect(inferYear('Remaster (2011)')).toBe(2011)
    expect(inferYear('Track 1812 Overture')).toBeUndefined()
    expect(inferYear('Code 123456')).toBeUndefined()
    expect(inferYear('Year 2099')).toBe(2099)
  })

  test("titles ending in '..>' become the URL's file name without extension", () => {
    expect(displayTitle({ title: 'A very long listing na..>', url: 'http://h/music/A%20very%20long%20listing%20name.mp3' })).toBe('A very long listing name')
    expect(displayTitle({ title: 'Fine', url: 'http://h/x.mp3' })).toBe('Fine')
    expect(fileNameFromUrl('http://h/a/b/Track%2001.ogg?sig=1#t')).toBe('Track 01')
  })

  test('the folder name is the nearest path segment not api, media, audio or music', () => {
    expect(folderNameFromUrl('https://nas.example.com/music/Jazz%20Classics/')).toBe('Jazz Classics')
    expect(folderNameFromUrl('https://h.example.com/Rock/api/media/audio/music/')).toBe('Rock')
    expect(folderNameFromUrl('https://h.example.com/albums/Blue/playlist.m3u')).toBe('Blue')
    expect(folderNameFromUrl('https://h.example.com/music/')).toBe('h.example.com')
  })

  test('tracks get the defaults; video by mime or URL extension; times as m:ss', () => {
    expect(makeTrack({ url: 'u' })).toEqual({ url: 'u', title: 'Unknown Title', mime: 'audio/mpeg', artist: '', album: 'Unknown Album', duration: 0 })
    expect(makeTrack({ url: 'u', duration: Number.NaN }).duration).toBe(0)
    expect(isVideo({ mime: 'video/webm', url: 'blob:x' })).toBe(true)
    expect(isVideo({ mime: 'audio/mpeg', url: 'http://h/clip.MKV?x=1' })).toBe(true)
    expect(isVideo({ mime: 'audio/mpeg', url: 'http://h/song.mp3' })).toBe(false)
    expect(formatTime(0)).toBe('0:00')
    expect(formatTime(65.9)).toBe('1:05')
    expect(formatTime(3725)).toBe('1:02:05')
    expect(formatTime(Number.NaN)).toBe('0:00')
  })

  test('a library track that cannot play here keeps why (a converted format on a server without ffmpeg)', () => {
    const track = makeTrack({ url: '/media/a.wma?t=mp3&exp=1&sig=x', title: 'Chime', mime: 'audio/mpeg', unavailable: 'needs ffmpeg' })
    expect(track.unavailable).toBe('needs ffmpeg')
    expect('unavailable' in makeTrack({ url: 'u' })).toBe(false)
  })
})

describe('track URLs from a source', () => {
  test('double-encoded escapes are decoded once, spaces encoded, relative URLs resolved', () => {
    const base = 'https://nas.example.com/music/Jazz/'
    expect(normalizeTrackUrl('So%2520What.mp3', base)).toBe('https://nas.example.com/music/Jazz/So%20What.mp3')
    expect(normalizeTrackUrl('Blue in Green.mp3', base)).toBe('https://nas.example.com/music/Jazz/Blue%20in%20Green.mp3')
    expect(normalizeTrackUrl('/other/a.mp3', base)).toBe('https://nas.example.com/other/a.mp3')
    expect(normalizeTrackUrl('http://cdn.example.com/x.ogg', base)).toBe('http://cdn.example.com/x.ogg')
  })
})

describe('track ids in listening events', () => {
  test('signed /media/ URLs lose their expiry and signature; other URLs stay as they are', () => {
    expect(trackIdOf('/media/music/Jazz/So%20What.mp3?exp=1800000000&sig=AbC-_12')).toBe('/media/music/Jazz/So%20What.mp3')
    expect(trackIdOf('/media/a.mp3?kind=cover&exp=1&sig=x')).toBe('/media/a.mp3')
    expect(trackIdOf('https://nas.example.com/media/a.mp3?sig=keep')).toBe('https://nas.example.com/media/a.mp3?sig=keep')
    expect(trackIdOf('local:Road Trip/A Morning.mp3')).toBe('local:Road Trip/A Morning.mp3')
    expect(trackIdOf('/media/unsigned.mp3?v=2')).toBe('/media/unsigned.mp3?v=2')
  })
})

describe('remote items to tracks', () => {
  test('defaults, absolute URLs, dropped items, and artist/year inferred from untagged titles', () => {
    const { tracks, dropped } = toTracks(
      [
        { url: 'Miles%20Davis%20-%20So%20What.mp3', title: 'Miles Davis - So What', mime: 'audio/mpeg' },
        { url: 'https://cdn.example.com/live.mp3', title: 'Nina Simone: Live 1965', artist: '' },
        { url: 'tagged.mp3', title: 'Blue - Green', artist: 'Tagged Artist', year: 1961 },
        { url: '   ', title: 'no url' },
        { title: 'missing url' } as never,
      ],
      'http://nas.local/music/Jazz/',
    )
    expect(dropped).toBe(2)
    expect(tracks.map((t) => [t.url, t.title, t.artist, t.year, t.album, t.mime])).toEqual([
      ['http://nas.local/music/Jazz/Miles%20Davis%20-%20So%20What.mp3', 'So What', 'Miles Davis', undefined, 'Unknown Album', 'audio/mpeg'],
      ['https://cdn.example.com/live.mp3', 'Live 1965', 'Nina Simone', 1965, 'Unknown Album', 'audio/mpeg'],
      ['http://nas.local/music/Jazz/tagged.mp3', 'Blue - Green', 'Tagged Artist', 1961, 'Unknown Album', 'audio/mpeg'],
    ])
  })
})
