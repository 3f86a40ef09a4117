// The library's one search box, in the top bar of every page for members: results
// as you type (150 ms after the last key), artists, albums and tracks in one listbox the arrow keys
// walk (ARIA combobox: focus stays in the box, aria-activedescendant names the active option); Enter
// opens an artist or album and plays a track; the last option, "All results", opens the search
// page (/library/search), whose lists have the track menu. The server answers from FTS5, so "bjork" finds
// "Björk". This module is a lazy chunk: top-bar-search.tsx shows a look-alike box until the first
// focus, then hands over what was typed and the focus to this one.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react'
import { css } from 'styled-system/css'
import { useTRPC } from '~/client/trpc'
import { inputClass } from '~/client/ui/input-class'
import type { LibrarySearchResult } from '~/shared/library'
import { Cover } from './cover'
import { plural } from './format'
import { playTracks } from './play'
import { SEARCH_PLACEHOLDER } from './top-bar-search'

const DEBOUNCE_MS = 150
const PER_KIND = 6

type Option = { key: string; kind: 'Artist' | 'Album' | 'Track' | 'Search'; title: string; detail: string; cover?: string; open: () => void }

function useDebounced(value: string, ms: number) {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return settled
}

export function LibrarySearch({ initialText = '' }: { initialText?: string }) {
  const trpc = useTRPC()
  const navigate = useNavigate()
  const id = useId()
  const [text, setText] = useState(initialText)
  const [open, setOpen] = useState(true)
  const input = useRef<HTMLInputElement>(null)
  // It replaces the focused look-alike box: take the focus (in the same commit, so no key is lost
  // to the page) with the caret after what was typed.
  useLayoutEffect(() => {
    input.current?.focus()
    input.current?.setSelectionRange(initialText.length, initialText.length)
  }, [initialText])
  const [active, setActive] = useState(-1)
  const q = useDebounced(text.trim(), DEBOUNCE_MS)
  const results = useQuery({
    ...trpc.library.search.queryOptions({ q, limit: PER_KIND }),
    enabled: q.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  })

  const options = q && results.data ? toOptions(q, results.data, (to) => navigate(to)) : []
  // A new answer puts the highlight back on its first option.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the answer changes
  useEffect(() => setActive(options.length > 0 ? 0 : -1), [results.data, q])

  const shown = open && q.length > 0
  const choose = (o: Option | undefined) => {
    if (!o) return
    setOpen(false)
    o.open()
  }
  // Enter before the answer to what was typed is in (the debounce, the request) waits for it,
  // then takes its first option: the list on screen until then answers an older query.
  const current = q === text.trim() && !results.isPlaceholderData && !results.isFetching
  const [enterPending, setEnterPending] = useState(false)
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the answer arrives
  useEffect(() => {
    if (!enterPending || !current) return
    setEnterPending(false)
    choose(options[0])
  }, [enterPending, current])

  return (
    <div className={css({ position: 'relative', w: 'full' })}>
      <input
        ref={input}
        type="search"
        role="combobox"
        aria-label="Search library"
        aria-expanded={shown}
        aria-controls={`${id}-list`}
        aria-autocomplete="list"
        aria-activedescendant={shown && active >= 0 ? `${id}-${active}` : undefined}
        placeholder={SEARCH_PLACEHOLDER}
        autoComplete="off"
        spellCheck={false}
        value={text}
        className={inputClass}
        onChange={(e) => {
          setText(e.target.value)
          setEnterPending(false)
          setOpen(true)
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && options.length) {
            e.preventDefault()
            setOpen(true)
            setActive((a) => (a + 1) % options.length)
          } else if (e.key === 'ArrowUp' && options.length) {
            e.preventDefault()
            setActive((a) => (a <= 0 ? options.length - 1 : a - 1))
          } else if (e.key === 'Enter' && text.trim()) {
            e.preventDefault()
            if (current) choose(options[active])
            else setEnterPending(true)
          } else if (e.key === 'Escape') {
            setOpen(false)
          }
        }}
      />
      {shown && (
        <div
          // On a phone the box is narrow: the panel spans the width under the top bar (the bar's
          // backdrop filter makes it the containing block of this fixed panel).
          className={css({
            position: { base: 'fixed', md: 'absolute' },
            top: { base: '16', md: 'calc(100% + 0.25rem)' },
            left: { base: '2', md: 0 },
            right: { base: '2', md: 0 },
            zIndex: 30,
            bg: 'bg.surface',
            borderWidth: '1px',
            borderColor: 'border.default',
            borderRadius: 'xl',
            boxShadow: 'xl',
            maxH: '70vh',
            overflowY: 'auto',
            p: '1',
          })}
        >
          <div id={`${id}-list`} role="listbox" aria-label="Search results">
            {options.map((o, i) => (
              // The keys are the combobox's (aria-activedescendant): options are never focused themselves.
              // biome-ignore lint/a11y/useKeyWithClickEvents: the search box handles the keys for every option
              <div
                key={o.key}
                id={`${id}-${i}`}
                role="option"
                tabIndex={-1}
                aria-selected={i === active}
                // Picking with the pointer must not blur the box first (which closes the list).
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => choose(o)}
                onMouseMove={() => setActive(i)}
                className={css({
                  display: 'flex',
                  alignItems: 'center',
                  gap: '3',
                  minH: '11',
                  px: '2',
                  py: '1',
                  borderRadius: 'md',
                  cursor: 'pointer',
                  '&[aria-selected=true]': { bg: 'bg.subtle' },
                })}
              >
                {o.kind === 'Search' ? (
                  <span aria-hidden className={css({ display: 'grid', placeItems: 'center', w: '9', h: '9', flexShrink: 0, color: 'fg.muted' })}>
                    ⌕
                  </span>
                ) : (
                  <Cover src={o.cover} name={o.title} round={o.kind === 'Artist'} className={css({ w: '9', h: '9', flexShrink: 0 })} />
                )}
                <span className={css({ display: 'flex', flexDirection: 'column', minW: 0, flex: '1' })}>
                  <span className={css({ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' })}>{o.title}</span>
                  <span className={css({ fontSize: 'xs', color: 'fg.muted', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' })}>
                    {o.kind === 'Search' ? 'Artists, albums and songs' : o.kind}
                    {o.detail ? ` · ${o.detail}` : ''}
                  </span>
                </span>
              </div>
            ))}
          </div>
          {options.length === 0 && (
            <p role="status" className={css({ px: '3', py: '3', fontSize: 'sm', color: 'fg.muted' })}>
              {results.isFetching || q !== text.trim() ? 'Searching…' : `Nothing found for “${q}”`}
            </p>
          )}
        </div>
      )}
    </div>
  )
}

type Go = (to: { to: '/library/albums/$id' | '/library/artists/$id'; params: { id: string } } | { to: '/library/search'; search: { q: string } }) => unknown

function toOptions(q: string, r: LibrarySearchResult, go: Go): Option[] {
  const found = r.artists.length + r.albums.length + r.tracks.length
  return [
    ...r.artists.map(
      (a): Option => ({
        key: `ar-${a.id}`,
        kind: 'Artist',
        title: a.name,
        detail: plural(a.albumCount, 'album'),
        cover: a.cover,
        open: () => go({ to: '/library/artists/$id', params: { id: a.id } }),
      }),
    ),
    ...r.albums.map(
      (a): Option => ({
        key: `al-${a.id}`,
        kind: 'Album',
        title: a.name,
        detail: a.artist,
        cover: a.cover,
        open: () => go({ to: '/library/albums/$id', params: { id: a.id } }),
      }),
    ),
    ...r.tracks.map(
      (t): Option => ({
        key: `tr-${t.id}`,
        kind: 'Track',
        title: t.title,
        detail: [t.artist, t.album].filter(Boolean).join(' · '),
        cover: t.cover,
        open: () => playTracks([t], t.title),
      }),
    ),
    ...(found > 0
      ? [{ key: 'all', kind: 'Search' as const, title: `All results for “${q}”`, detail: '', open: () => go({ to: '/library/search', search: { q } }) }]
      : []),
  ]
}
