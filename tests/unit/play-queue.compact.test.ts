// What the player saves for each queued track (queuedTrackOf): library tracks as bare paths, with
// a converted stream's profile kept; remote tracks whole.
import { expect, test } from 'bun:test'
import { bareMediaUrl, queuedTrackOf } from '~/shared/player/play-queue'

const tags = { title: 'So What', artist: 'Miles Davis', album: 'Kind of Blue', duration: 545, mime: 'audio/mpeg' }

test('a signed library URL loses its expiry, signature and tags; a converted stream keeps t=', () => {
  expect(queuedTrackOf({ ...tags, url: '/media/Jazz/01%20So%20What.mp3?exp=1764003600&sig=abc_-' })).toEqual({ url: '/media/Jazz/01%20So%20What.mp3' })
  expect(bareMediaUrl('/media/Old/a.wma?t=mp3&exp=1764003600&sig=xyz')).toBe('/media/Old/a.wma?t=mp3')
  expect(bareMediaUrl('/media/plain.mp3')).toBe('/media/plain.mp3')
})

test('a remote track is saved whole', () => {
  const remote = { ...tags, url: 'https://nas.example.com/music/So%20What.mp3?exp=1&sig=theirs' }
  expect(queuedTrackOf(remote)).toEqual(remote)
})
