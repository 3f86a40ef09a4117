// Every documented REST path (docs/rest-api.md), one file per domain.
import type { RestRoute } from '../define'
import { adminRoutes } from './admin'
import { analyticsRoutes } from './analytics'
import { appKeyRoutes } from './app-keys'
import { authRoutes } from './auth'
import { chartsRoutes } from './charts'
import { contactRoutes } from './contact'
import { folderRoutes } from './folders'
import { healthRoutes } from './health'
import { hitsRoutes } from './hits'
import { libraryRoutes } from './library'
import { playlistRoutes } from './playlist'
import { playlistsRoutes } from './playlists'
import { podcastRoutes } from './podcasts'
import { profileRoutes } from './profile'
import { radioRoutes } from './radio'
import { scrobblingRoutes } from './scrobbling'
import { remoteRoutes } from './remote'
import { shareRoutes } from './shares'
import { statsRoutes } from './stats'

export const restRoutes: RestRoute[] = [
  ...authRoutes,
  ...healthRoutes,
  ...contactRoutes,
  ...chartsRoutes,
  ...hitsRoutes,
  ...folderRoutes,
  ...remoteRoutes,
  ...playlistRoutes,
  ...adminRoutes,
  ...statsRoutes,
  ...analyticsRoutes,
  ...libraryRoutes,
  ...profileRoutes,
  ...appKeyRoutes,
  ...scrobblingRoutes,
  ...playlistsRoutes,
  ...shareRoutes,
  ...podcastRoutes,
  ...radioRoutes,
]
