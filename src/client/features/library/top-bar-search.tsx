// The top bar's library search for members. JavaScript for `/` is at its budget,
// so until the box is first focused this is only a look-alike input; focusing it loads the real
// search (library-search.tsx, a lazy chunk), which takes over the text typed meanwhile and the focus.
import { type ComponentType, useState } from 'react'
import { inputClass } from '~/client/ui/input-class'

type Search = ComponentType<{ initialText?: string }>

/** Short enough to show whole in a phone's header ("Search artists, albums, songs" was cut). */
export const SEARCH_PLACEHOLDER = 'Search music'

export function TopBarSearch() {
  const [text, setText] = useState('')
  const [Loaded, setLoaded] = useState<Search>()
  if (Loaded) return <Loaded initialText={text} />
  return (
    <input
      type="search"
      role="combobox"
      aria-label="Search library"
      aria-expanded={false}
      placeholder={SEARCH_PLACEHOLDER}
      autoComplete="off"
      value={text}
      className={inputClass}
      onChange={(e) => setText(e.target.value)}
      onFocus={() => import('./library-search').then((m) => setLoaded(() => m.LibrarySearch))}
    />
  )
}
