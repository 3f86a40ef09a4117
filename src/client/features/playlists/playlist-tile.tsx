// The tile that stands for a playlist (the list's rows and the playlist page's cover).
import { CoverTile } from '~/client/ui/cover-tile'

export function PlaylistTile({ size }: { size: 'sm' | 'lg' }) {
  return <CoverTile size={size} icon="playlist" fadeTo="surface" />
}
