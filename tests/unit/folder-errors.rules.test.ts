// The members' folder error messages: the server's message when it sent one, the
// failed call's fallback when the answer had none (a proxy's HTML 502), the screen's own for a
// failure that is not a call's answer.
import { describe, expect, test } from 'bun:test'
import { TRPCClientError } from '@trpc/client'
import { folderErrorMessage } from '~/client/features/folders/folder-errors'

/** What httpBatchLink throws when the body is not JSON. */
const noEnvelope = () => TRPCClientError.from(new SyntaxError("JSON Parse error: Unrecognized token '<'"))
const fromServer = (message: string) => TRPCClientError.from({ error: { message, code: -32600, data: { code: 'BAD_REQUEST', httpStatus: 400 } } } as never)

describe('folder error messages', () => {
  test('an answer without an envelope gets the call’s fallback', () => {
    expect(folderErrorMessage('fetch', noEnvelope())).toBe('Failed to fetch folders')
    expect(folderErrorMessage('add', noEnvelope())).toBe('Failed to add folder')
    expect(folderErrorMessage('update', noEnvelope())).toBe('Failed to update folder')
    expect(folderErrorMessage('reorder', noEnvelope())).toBe('Failed to reorder folders')
  })

  test('the server’s own message wins', () => {
    expect(folderErrorMessage('add', fromServer('Folder path must start with /'))).toBe('Folder path must start with /')
    expect(folderErrorMessage('reorder', fromServer('Folder not found'))).toBe('Folder not found')
  })

  test('a failure that is not a call’s answer gets the screen’s text', () => {
    expect(folderErrorMessage('fetch', new Error('boom'))).toBe('Failed to load folders')
    expect(folderErrorMessage('add', 'weird')).toBe('An unexpected error occurred')
    expect(folderErrorMessage('reorder', undefined)).toBe('An unexpected error occurred while saving folder order')
  })

  test('no response at all is the connection message', () => {
    expect(folderErrorMessage('fetch', TRPCClientError.from(new TypeError('Failed to fetch')))).toBe('No response from server. Please check your connection.')
  })
})
