// Music (admin spec §2 "Music"): static sample playlists and songs. The buttons are placeholders
// and do nothing yet; members' real music lives in their folders.
import { css } from 'styled-system/css'
import { Button } from '~/client/ui/button'
import { AdvertsPanel } from '../adverts/adverts-panel'
import { Panel, table, TableScroll } from '../panels/panel'

const PLAYLISTS = [
  { name: 'Summer Vibes', songs: 24, owner: 'admin' },
  { name: 'Chill Evenings', songs: 18, owner: 'admin' },
  { name: 'Workout Mix', songs: 32, owner: 'admin' },
] as const

const SONGS = [
  { title: 'Blinding Lights', artist: 'The Weeknd', album: 'After Hours', duration: '3:20' },
  { title: 'Levitating', artist: 'Dua Lipa', album: 'Future Nostalgia', duration: '3:23' },
  { title: 'Watermelon Sugar', artist: 'Harry Styles', album: 'Fine Line', duration: '2:54' },
  { title: 'Good 4 U', artist: 'Olivia Rodrigo', album: 'SOUR', duration: '2:58' },
  { title: 'Stay', artist: 'The Kid LAROI & Justin Bieber', album: 'F*ck Love 3', duration: '2:21' },
] as const

const noop = () => {}

export function MusicPage() {
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '5' })}>
      <div className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: '3' })}>
        <div>
          <h2 className={css({ fontSize: 'xl', fontWeight: 'bold' })}>Music Management</h2>
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>Sample playlists and songs; managing the library from here is not available yet.</p>
        </div>
        <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
          <Button variant="outline" onClick={noop}>
            Upload Songs
          </Button>
          <Button onClick={noop}>Create Playlist</Button>
        </div>
      </div>

      <Panel title="Playlists">
        <ul className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', md: 'repeat(3, minmax(0, 1fr))' }, gap: '3' })}>
          {PLAYLISTS.map((p) => (
            <li key={p.name} className={css({ bg: 'bg.subtle', borderRadius: 'lg', p: '4', display: 'flex', flexDirection: 'column', gap: '3' })}>
              <div>
                <p className={css({ fontWeight: 'semibold' })}>{p.name}</p>
                <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
                  {p.songs} songs · by {p.owner}
                </p>
              </div>
              <div className={css({ display: 'flex', gap: '2' })}>
                <Button size="sm" variant="outline" onClick={noop} aria-label={`Edit ${p.name}`}>
                  Edit
                </Button>
                <Button size="sm" variant="ghost" onClick={noop} aria-label={`Delete ${p.name}`}>
                  Delete
                </Button>
              </div>
            </li>
          ))}
        </ul>
      </Panel>

      <Panel title="Songs">
        <TableScroll label="Songs">
          <table className={table}>
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Artist</th>
                <th scope="col" className={css({ hideBelow: 'md' })}>
                  Album
                </th>
                <th scope="col" className="num">
                  Length
                </th>
                <th scope="col">
                  <span className={css({ srOnly: true })}>Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {SONGS.map((s) => (
                <tr key={s.title}>
                  <td className={css({ fontWeight: 'medium' })}>{s.title}</td>
                  <td className={css({ color: 'fg.muted' })}>{s.artist}</td>
                  <td className={css({ color: 'fg.muted', hideBelow: 'md' })}>{s.album}</td>
                  <td className="num">{s.duration}</td>
                  <td>
                    <div
                      className={css({
                        display: 'flex',
                        flexDirection: { base: 'column', sm: 'row' },
                        justifyContent: 'flex-end',
                        alignItems: 'flex-end',
                        gap: '1',
                      })}
                    >
                      <Button size="sm" variant="ghost" onClick={noop} aria-label={`Play ${s.title}`}>
                        Play
                      </Button>
                      <Button size="sm" variant="ghost" onClick={noop} aria-label={`Edit ${s.title}`}>
                        Edit
                      </Button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </Panel>
      <AdvertsPanel />
    </div>
  )
}
