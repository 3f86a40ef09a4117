// The folder dialog's library browser: walk the indexed MEDIA_ROOT tree
// (GET /api/library/folders?path=) and pick a folder instead of typing its path. It starts at the
// typed path when the library has it, else at the top; a path typed by hand is still checked by
// the server when the folder is saved.
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Icon } from '~/client/ui/icon'
import { css, cx } from 'styled-system/css'
import { useTRPC } from '~/client/trpc'
import { Button } from '~/client/ui/button'
import { listChoice } from '~/client/ui/list-choice'
import { Spinner } from '~/client/ui/spinner'
import { plural } from '~/shared/plural'
import { mutedText } from '~/client/ui/text'

const row = cx(listChoice, css({ gap: '2' }))

export function LibraryFolderPicker({ start, onPick }: { start: string; onPick: (path: string) => void }) {
  const trpc = useTRPC()
  const [path, setPath] = useState(start.startsWith('/') ? start : '/')
  const listing = useQuery({ ...trpc.library.folder.queryOptions({ path }), retry: false })
  // A typed path the library does not have: browse from the top instead.
  if (listing.isError && path !== '/') setPath('/')
  const data = listing.data
  const parent = data && data.path !== '/' ? data.path.slice(0, data.path.lastIndexOf('/')) || '/' : null
  return (
    <section
      aria-label="Music library folders"
      className={css({ display: 'flex', flexDirection: 'column', gap: '2', borderWidth: '1px', borderColor: 'border.default', borderRadius: 'lg', p: '2' })}
    >
      {!data ? (
        listing.isError ? (
          <p className={css({ fontSize: 'sm', color: 'fg.muted', p: '2' })}>The music library could not be read.</p>
        ) : (
          <Spinner label="Loading the library folders" />
        )
      ) : (
        <>
          <div className={css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '2', px: '1' })}>
            <p className={css({ display: 'flex', flexDirection: 'column', minW: 0, fontSize: 'sm' })} aria-live="polite">
              <span className={css({ fontWeight: 'semibold', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' })}>{data.path}</span>
              <span className={mutedText({ size: 'xs' })}>{plural(data.tracks.length, 'track')} here</span>
            </p>
            <Button size="sm" onClick={() => onPick(data.path)}>
              Use this folder
            </Button>
          </div>
          <ul aria-label="Sub-folders" className={css({ maxH: '48', overflowY: 'auto', display: 'flex', flexDirection: 'column' })}>
            {parent !== null && (
              <li>
                <button type="button" className={row} onClick={() => setPath(parent)}>
                  <span aria-hidden>↩</span> Up to {parent}
                </button>
              </li>
            )}
            {data.folders.map((f) => (
              <li key={f.path}>
                <button type="button" className={row} onClick={() => setPath(f.path)}>
                  <Icon name="folder" size={16} className={css({ flexShrink: 0, color: 'accent.text' })} />
                  <span className={css({ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' })}>{f.name}</span>
                </button>
              </li>
            ))}
            {data.folders.length === 0 && <li className={css({ fontSize: 'sm', color: 'fg.muted', px: '3', py: '2' })}>No folders inside.</li>}
          </ul>
        </>
      )}
    </section>
  )
}
