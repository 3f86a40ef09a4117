// An album or artist id the library does not have (an old link, a typo, a rescan that dropped
// it): a not-found page with the way back, instead of the crash screen. The API answers 404 for
// an unknown id and 400 for one that cannot be an id; both mean "no such page" here.
import type { ErrorComponentProps } from '@tanstack/react-router'
import { Link } from '@tanstack/react-router'
import { css } from 'styled-system/css'
import { ErrorScreen } from '~/client/features/layout/error-screen'
import { httpStatusOf } from '~/client/global-errors'

export function LibraryNotFound({ kind }: { kind: 'Album' | 'Artist' }) {
  return (
    <section
      className={css({ minH: '50vh', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: '4', textAlign: 'center' })}
    >
      <h1 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>{kind} not found</h1>
      <p className={css({ color: 'fg.muted', maxW: 'md' })}>This {kind.toLowerCase()} is not in the music library. It may have been moved or removed.</p>
      <Link
        to="/library"
        search={{ tab: kind === 'Album' ? 'albums' : 'artists' }}
        className={css({
          color: 'accent.default',
          fontWeight: 'medium',
          minH: '11',
          display: 'inline-flex',
          alignItems: 'center',
          _hover: { textDecoration: 'underline' },
        })}
      >
        Back to the library
      </Link>
    </section>
  )
}

/** A library page's error screen: not found for an unknown id, else the usual crash screen. */
export const libraryErrorFor =
  (kind: 'Album' | 'Artist') =>
  ({ error, reset, info }: ErrorComponentProps) => {
    const status = httpStatusOf(error)
    return status === 404 || status === 400 ? <LibraryNotFound kind={kind} /> : <ErrorScreen error={error} reset={reset} info={info} />
  }
