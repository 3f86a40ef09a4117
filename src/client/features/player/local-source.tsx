// The Local Files tab: "Select Media Folder" opens a directory input (every browser);
// Chromium also offers the File System Access API; a folder can be dropped onto the panel.
import { useEffect, useRef, useState } from 'react'
import { css } from 'styled-system/css'
import { Button } from '~/client/ui/button'
import { MEDIA_EXTENSIONS } from '~/shared/player/mime'
import { Icon } from '~/client/ui/icon'
import { warmTagReader } from './read-tags'
import { filesFromDirectoryPicker, filesFromDrop, filesFromInput, hasDirectoryPicker, type PickedFile } from './local-library'
import { usePlayer } from './player-store'
import { plural } from '~/shared/plural'

type OnFiles = (files: PickedFile[], label?: string) => void
type Props = { error: string | null; onFiles: OnFiles }

const carriesFiles = (e: React.DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes('Files')

/** Drop-target handlers for a folder (or files) dragged from the device. */
export function useFolderDrop(onFiles: OnFiles) {
  const [dragging, setDragging] = useState(false)
  const [reading, setReading] = useState(false)
  const handlers = {
    onDragOver: (e: React.DragEvent) => {
      if (!carriesFiles(e)) return
      e.preventDefault()
      if (!dragging) warmTagReader()
      e.dataTransfer.dropEffect = 'copy'
      setDragging(true)
    },
    onDragLeave: (e: React.DragEvent) => {
      // Leaving for a child of the target is not leaving.
      if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false)
    },
    onDrop: async (e: React.DragEvent) => {
      if (!carriesFiles(e)) return
      e.preventDefault()
      setDragging(false)
      setReading(true)
      try {
        const { files, label } = await filesFromDrop(e.dataTransfer)
        onFiles(files, label)
      } finally {
        setReading(false)
      }
    },
  }
  return { dragging, reading, handlers }
}

export function LocalSource({ error, onFiles }: Props) {
  const input = useRef<HTMLInputElement>(null)
  const { dragging, reading, handlers } = useFolderDrop(onFiles)
  const { localResume } = usePlayer()
  // Decided after hydration: the server cannot know the browser.
  const [fsAccess, setFsAccess] = useState(false)
  useEffect(() => setFsAccess(hasDirectoryPicker()), [])

  async function pickWithAccess() {
    warmTagReader()
    const picked = await filesFromDirectoryPicker()
    if (picked) onFiles(picked.files, picked.label)
  }

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a drop target only; the Select Media Folder button is the keyboard path
    <div
      onDragOver={handlers.onDragOver}
      onDragLeave={handlers.onDragLeave}
      onDrop={(e) => void handlers.onDrop(e)}
      data-dragging={dragging || undefined}
      className={css({
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        textAlign: 'center',
        gap: '3',
        p: { base: '5', md: '8' },
        borderWidth: '2px',
        borderStyle: 'dashed',
        borderColor: 'border.default',
        borderRadius: 'xl',
        transition: 'border-color 0.15s, background 0.15s',
        '&[data-dragging]': { borderColor: 'accent.default', bg: 'accent.muted' },
      })}
    >
      <span className={css({ color: 'accent.default' })}>
        <Icon name="folder" size={36} />
      </span>
      {localResume && (
        // A browser cannot reopen a picked folder by itself: say which one to pick to go on.
        <p
          role="status"
          data-testid="local-resume"
          className={css({ fontSize: 'sm', fontWeight: 'medium', bg: 'accent.muted', color: 'fg.default', px: '3', py: '2', borderRadius: 'lg', maxW: 'md' })}
        >
          You were listening to “{localResume.label}” ({plural(localResume.count, 'track')}). Select that folder again to resume where you left off.
        </p>
      )}
      <p className={css({ fontSize: 'sm', color: 'fg.muted', maxW: 'md' })}>
        Play music and videos straight from your device. Pick a folder or drop one here — nothing is uploaded.
      </p>
      <input
        ref={input}
        type="file"
        // @ts-expect-error: webkitdirectory is not in React's input props, but every browser supports it.
        webkitdirectory=""
        directory=""
        multiple
        hidden
        data-testid="folder-input"
        onChange={(e) => {
          onFiles(filesFromInput(e.currentTarget.files))
          e.currentTarget.value = ''
        }}
      />
      <div className={css({ display: 'flex', gap: '2', flexDirection: 'column', alignItems: 'center' })}>
        <Button
          size="lg"
          onClick={() => {
            warmTagReader()
            input.current?.click()
          }}
          onPointerEnter={warmTagReader}
          disabled={reading}
        >
          <Icon name="folder" size={18} />
          Select Media Folder
        </Button>
        {fsAccess && (
          <Button size="sm" variant="ghost" onClick={() => void pickWithAccess()} disabled={reading} className={css({ alignSelf: 'center' })}>
            Open with folder access
          </Button>
        )}
      </div>
      <p className={css({ fontSize: 'xs', color: 'fg.subtle' })}>{MEDIA_EXTENSIONS.map((e) => e.toUpperCase()).join(' · ')}</p>
      {error && (
        <p role="alert" className={css({ fontSize: 'sm', color: 'danger.fg', fontWeight: 'medium' })}>
          {error}
        </p>
      )}
    </div>
  )
}
