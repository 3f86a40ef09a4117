import { describe, expect, test } from 'bun:test'
import { InteractionSchema, PlayEventCreateSchema, PlayEventUpdateSchema, RemotePlaylistSchema } from '~/shared/validators'

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) => (r.success ? null : r.error!.issues[0].message)

describe('remote URL input', () => {
  test('blank, missing and non-http URLs get their messages', () => {
    expect(firstMessage(RemotePlaylistSchema.safeParse({ url: '   ' }))).toBe('Please enter a URL')
    expect(firstMessage(RemotePlaylistSchema.safeParse({}))).toBe('Please enter a URL')
    expect(firstMessage(RemotePlaylistSchema.safeParse({ url: 'ftp://host/music/' }))).toBe('Please enter a valid URL starting with http:// or https://')
    expect(firstMessage(RemotePlaylistSchema.safeParse({ url: 'example.com/music' }))).toBe('Please enter a valid URL starting with http:// or https://')
    expect(firstMessage(RemotePlaylistSchema.safeParse({ url: 'http://' }))).toBe('Please enter a valid URL starting with http:// or https://')
    expect(RemotePlaylistSchema.parse({ url: ' https://nas.local/music/ ' })).toEqual({ url: 'https://nas.local/music/' })
    expect(RemotePlaylistSchema.safeParse({ url: 'https://a.b/', extra: 1 }).success).toBe(false)
  })
})

describe('listening event inputs', () => {
  test('a play event takes defaults and rejects bad enums, numbers and session ids', () => {
    const ok = PlayEventCreateSchema.parse({ trackUrl: 'http://h/a.mp3', title: 'A' })
    expect(ok).toMatchObject({ duration: 0, source: 'direct', networkType: 'unknown', genre: null })
    expect(firstMessage(PlayEventCreateSchema.safeParse({ trackUrl: 'u', title: 'A', source: 'jukebox' }))).toBe(
      'Source must be one of: repeat, shuffle, direct, playlist, radio, podcast',
    )
    expect(firstMessage(PlayEventCreateSchema.safeParse({ trackUrl: 'u', title: 'A', networkType: '5g' }))).toBe(
      'Network type must be one of: 4g, 3g, 2g, ethernet, wifi, unknown',
    )
    expect(firstMessage(PlayEventCreateSchema.safeParse({ trackUrl: 'u', title: 'A', duration: -1 }))).toBe('Duration must be at least 0')
    expect(PlayEventCreateSchema.safeParse({ trackUrl: 'u', title: 'A', duration: Number.POSITIVE_INFINITY }).success).toBe(false)
    expect(firstMessage(PlayEventCreateSchema.safeParse({ trackUrl: 'u', title: 'A', sessionId: 'abc' }))).toBe(
      'Session id must look like session_{timestamp}_{random}',
    )
    expect(firstMessage(PlayEventCreateSchema.safeParse({ trackUrl: '', title: 'A' }))).toBe('Track URL is required')
    expect(firstMessage(PlayEventCreateSchema.safeParse({ trackUrl: 'u', title: 'x'.repeat(501) }))).toBe('Title must be at most 500 characters')
  })

  test('updates and interactions validate their fields', () => {
    expect(firstMessage(PlayEventUpdateSchema.safeParse({ playEventId: 'x', listenDuration: -3 }))).toBe('Listen duration must be at least 0')
    expect(firstMessage(PlayEventUpdateSchema.safeParse({ playEventId: 'x', bufferCount: 1.5 }))).toBe('Buffer count must be a whole number')
    expect(firstMessage(PlayEventUpdateSchema.safeParse({ playEventId: 'x', completed: 'yes' }))).toBe('Completed must be true or false')
    expect(PlayEventUpdateSchema.parse({ playEventId: 'x', endedAt: '2024-05-01T10:00:00Z' }).endedAt).toEqual(new Date('2024-05-01T10:00:00Z'))
    expect(firstMessage(PlayEventUpdateSchema.safeParse({ playEventId: 'x', endedAt: 'soon' }))).toBe('Ended at must be a valid date')
    expect(firstMessage(InteractionSchema.safeParse({ trackId: 't', interactionType: 'download' }))).toBe(
      'Interaction type must be one of: like, share, repeat',
    )
    expect(InteractionSchema.parse({ trackId: 't', interactionType: 'like', timestamp: 0 }).timestamp).toEqual(new Date(0))
  })
})
