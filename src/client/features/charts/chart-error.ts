// The chart error texts: the server's 404 message, "HTTP error {status}" for
// other failed answers, and the two fallbacks.
import { httpStatusOf, isNetworkError } from '~/client/global-errors'

export const CHARTS_LOAD_FAILED = 'Failed to load charts data'
export const CHARTS_FETCH_FAILED = 'An error occurred while fetching charts data'

export function chartsErrorMessage(error: unknown): string {
  if (isNetworkError(error)) return CHARTS_FETCH_FAILED
  const status = httpStatusOf(error)
  if (status === 404) return (error as { message?: string }).message || CHARTS_LOAD_FAILED
  if (status !== undefined) return `HTTP error ${status}`
  return CHARTS_LOAD_FAILED
}
