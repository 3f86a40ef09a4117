import { describe, expect, test } from 'bun:test'
import { folderLabelOf, localLibrary, tracksFromFiles } from '~/client/features/player/local-library'
import { mediaUrlOf } from '~/client/features/player/track-identity'

const picked = (...paths: string[]) => paths.map((path) => ({ file: new File(['x'], path.split('/').pop()!), path }))

describe('tracks from a picked folder', () => {
  test('keeps media files only, in natural order, named from their file names', () => {
    const registered: string[] = []
    const { tracks, files } = tracksFromFiles(
      picked('Mix/Track 10.mp3', 'Mix/cover.jpg', 'Mix/Track 2.flac', 'Mix/Nina Simone - Feeling Good 1965.m4a', 'Mix/clip.MKV', 'Mix/notes.txt'),
      (url) => registered.push(url),
    )
    expect(tracks.map((t) => t.url)).toEqual([
      'local:Mix/clip.MKV',
      'local:Mix/Nina Simone - Feeling Good 1965.m4a',
      'local:Mix/Track 2.flac',
      'local:Mix/Track 10.mp3',
    ])
    expect(registered).toEqual(tracks.map((t) => t.url))
    expect(files.map((f) => f.name)).toEqual(['clip.MKV', 'Nina Simone - Feeling Good 1965.m4a', 'Track 2.flac', 'Track 10.mp3'])
    expect(tracks[1]).toEqual({
      url: 'local:Mix/Nina Simone - Feeling Good 1965.m4a',
      title: 'Feeling Good 1965',
      artist: 'Nina Simone',
      mime: 'audio/mp4',
      album: 'Unknown Album',
      year: 1965,
      duration: 0,
    })
    expect(tracks[0].mime).toBe('video/x-matroska')
    expect(folderLabelOf(picked('Mix/a.mp3'))).toBe('Mix')
  })

  test('a folder without media gives no tracks; equal paths stay distinct', () => {
    expect(tracksFromFiles(picked('Docs/a.txt', 'Docs/b.pdf'), () => {}).tracks).toEqual([])
    const { tracks } = tracksFromFiles(picked('a.mp3', 'a.mp3'), () => {})
    expect(tracks.map((t) => t.url)).toEqual(['local:a.mp3', 'local:a.mp3#2'])
  })
})

describe('replacing the picked folder', () => {
  // A batch e2e run once loaded a `local:` pseudo-URL (refused by the CSP): the old folder's files
  // were let go while the new one's first tags were awaited, and the player, still in the old
  // list, preloaded its next track in that window.
  test('the playing folder stays playable until the new one is handed over; a released file has no URL', async () => {
    expect(await localLibrary.load(picked('Old/a.mp3', 'Old/b.mp3'))).toBe(true)
    const old = mediaUrlOf('local:Old/b.mp3')
    expect(old).toStartWith('blob:')
    const loading = localLibrary.load(picked('New/c.mp3'))
    expect(mediaUrlOf('local:Old/b.mp3')).toBe(old)
    expect(await loading).toBe(true)
    expect(mediaUrlOf('local:Old/b.mp3')).toBeNull()
    expect(mediaUrlOf('local:New/c.mp3')).toStartWith('blob:')
    expect(mediaUrlOf('/media/x.mp3')).toBe('/media/x.mp3')
  })
})
