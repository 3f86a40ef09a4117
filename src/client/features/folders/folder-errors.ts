// The members' folder messages when a call fails: the server's own
// message when it sent one; else the fallback of the call that failed ("Failed to fetch folders",
// "Failed to add folder", "Failed to update folder", "Failed to reorder folders"); and for a
// failure that is not a call's answer at all, the screen's own ("Failed to load folders", "An
// unexpected error occurred", "An unexpected error occurred while saving folder order").
import { TRPCClientError } from '@trpc/client'
import { errorMessage } from '~/client/global-errors'

export type FolderAction = 'fetch' | 'add' | 'update' | 'reorder'

const CALL_FALLBACK: Record<FolderAction, string> = {
  fetch: 'Failed to fetch folders',
  add: 'Failed to add folder',
  update: 'Failed to update folder',
  reorder: 'Failed to reorder folders',
}

const SCREEN_FALLBACK: Record<FolderAction, string> = {
  fetch: 'Failed to load folders',
  add: 'An unexpected error occurred',
  update: 'An unexpected error occurred',
  reorder: 'An unexpected error occurred while saving folder order',
}

export function folderErrorMessage(action: FolderAction, error: unknown): string {
  if (!(error instanceof TRPCClientError)) return SCREEN_FALLBACK[action]
  // No envelope came back (a proxy's HTML error page, an empty body): the parse error says nothing.
  if (error.shape === undefined && !(error.cause instanceof TypeError)) return CALL_FALLBACK[action]
  return errorMessage(error, CALL_FALLBACK[action])
}
