// The Local Files tab (§2, §5): "Select Media Folder" opens a directory input (every browser);
// Chromium also offers the File System Access API; a folder can be dropped onto the panel.
import { useEffect, useRef, useState } from 'react'
import { css } from 'styled-system/css'
import { Button } from '~/client/ui/button'
import { MEDIA_EXTENSIONS } from '~/shared/player/mime'
import { Icon } from './icons'
import { filesFromDirectoryPicker, filesFromDrop, filesFromInput, hasDirectoryPicker, type PickedFile } from './local-library'

type Props = { error: string | null; onFiles: (files: PickedFile[], label?: string) => void }

export function LocalSource({ error, onFiles }: Props) {
  const input = useRef<HTMLInputElement>(null)
  const [dragging, setDragging] = useState(false)
  const [reading, setReading] = useState(false)
  // Decided after hydration: the server cannot know the browser.
  const [fsAccess, setFsAccess] = useState(false)
  useEffect(() => setFsAccess(hasDirectoryPicker()), [])

  async function onDrop(e: React.DragEvent) {
    e.preventDefault()
    setDragging(false)
    setReading(true)
    try {
      const { files, label } = await filesFromDrop(e.dataTransfer)
      onFiles(files, label)
    } finally {
      setReading(false)
    }
  }

  async function pickWithAccess() {
    const picked = await filesFromDirectoryPicker()
    if (picked) onFiles(picked.files, picked.label)
  }

  return (
    <div
      onDragOver={(e) => {
        e.preventDefault()
        setDragging(true)
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => void onDrop(e)}
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
      <p className={css({ fontSize: 'sm', color: 'fg.muted', maxW: 'md' })}>Play music and videos straight from your device. Pick a folder or drop one here — nothing is uploaded.</p>
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
        <Button size="lg" onClick={() => input.current?.click()} disabled={reading}>
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
