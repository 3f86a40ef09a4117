// Internet radio: the stations admins keep, each member's favourites among them, and what a
// station is playing now. One service behind the web app (tRPC and REST) and OpenSubsonic's
// internet-radio methods. A station's URLs pass the remote-folder address policy when saved (the
// host is resolved and every address judged; the station need not be on the air then), and the
// stream is judged again on every hop each time the server opens it (radio/stream.ts), so a name
// that later resolves into the LAN is still refused. docs/decisions/077.
import { and, asc, eq, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/sqlite-core'
import type { Db } from '~/db/client'
import { tablesOf } from '~/db/engine'
import type { RadioStation } from '~/db/schema'
import { RADIO_STREAM_PREFIX } from '~/shared/player/track'
import type { RadioStationCreateInput, RadioStationUpdateInput } from '~/shared/validators'
import { InvalidError, NotFoundError } from '../errors'
import { remotePolicy } from '../remote'
import { checkHost, RemoteError } from '../remote/fetch'
import { readNowPlaying } from '../radio/icy'

export const STATION_NOT_FOUND = 'Radio station not found'

/** Where the web player listens to a station: through this server (decision 077). */
export const radioListenPath = (id: string) => `${RADIO_STREAM_PREFIX}${encodeURIComponent(id)}`

export type RadioStationView = {
  id: string
  name: string
  streamUrl: string
  homepageUrl: string | null
  /** The caller starred it. */
  favourite: boolean
  /** The web player's address for the stream (this server's proxy). */
  listenUrl: string
  createdAt: Date
  updatedAt: Date
  /** Who added and who last changed it (null once that account is gone). */
  createdBy: string | null
  updatedBy: string | null
}

async function checkUrl(url: string, field: string): Promise<void> {
  try {
    await checkHost(new URL(url), remotePolicy())
  } catch (error) {
    if (error instanceof RemoteError) throw new InvalidError(error.message, field)
    throw error
  }
}

async function checkUrls(input: { streamUrl: string; homepageUrl?: string | null }): Promise<void> {
  await checkUrl(input.streamUrl, 'streamUrl')
  if (input.homepageUrl) await checkUrl(input.homepageUrl, 'homepageUrl')
}

/** Every station, the caller's favourites first, then by name. */
export async function listStations(db: Db, userId: string): Promise<RadioStationView[]> {
  const { radioFavourites, radioStations, users } = tablesOf(db)
  const creator = alias(users, 'creator')
  const updater = alias(users, 'updater')
  const rows = await db
    .select({
      station: radioStations,
      favourite: sql<number>`case when ${radioFavourites.userId} is null then 0 else 1 end`,
      createdBy: creator.username,
      updatedBy: updater.username,
    })
    .from(radioStations)
    .leftJoin(radioFavourites, and(eq(radioFavourites.stationId, radioStations.id), eq(radioFavourites.userId, userId)))
    .leftJoin(creator, eq(creator.id, radioStations.createdBy))
    .leftJoin(updater, eq(updater.id, radioStations.updatedBy))
    .orderBy(sql`case when ${radioFavourites.userId} is null then 1 else 0 end`, asc(sql`lower(${radioStations.name})`), asc(radioStations.id))
  return rows.map((r) => view(r.station, Number(r.favourite) === 1, r.createdBy, r.updatedBy))
}

const view = (s: RadioStation, favourite: boolean, createdBy: string | null, updatedBy: string | null): RadioStationView => ({
  id: s.id,
  name: s.name,
  streamUrl: s.streamUrl,
  homepageUrl: s.homepageUrl,
  favourite,
  listenUrl: radioListenPath(s.id),
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
  createdBy,
  updatedBy,
})

export async function getStation(db: Db, id: string) {
  const { radioStations } = tablesOf(db)
  const [station] = await db.select().from(radioStations).where(eq(radioStations.id, id)).limit(1)
  if (!station) throw new NotFoundError(STATION_NOT_FOUND)
  return station
}

export async function createStation(db: Db, adminId: string, input: RadioStationCreateInput): Promise<{ id: string }> {
  const { radioStations } = tablesOf(db)
  await checkUrls(input)
  const [row] = await db
    .insert(radioStations)
    .values({ name: input.name, streamUrl: input.streamUrl, homepageUrl: input.homepageUrl ?? null, createdBy: adminId, updatedBy: adminId })
    .returning({ id: radioStations.id })
  return { id: row.id }
}

export async function updateStation(db: Db, adminId: string, input: RadioStationUpdateInput): Promise<{ id: string }> {
  const { radioStations } = tablesOf(db)
  await getStation(db, input.id)
  await checkUrls(input)
  await db
    .update(radioStations)
    .set({ name: input.name, streamUrl: input.streamUrl, homepageUrl: input.homepageUrl ?? null, updatedBy: adminId, updatedAt: new Date() })
    .where(eq(radioStations.id, input.id))
  return { id: input.id }
}

export async function deleteStation(db: Db, id: string): Promise<{ id: string }> {
  const { radioStations } = tablesOf(db)
  const deleted = await db.delete(radioStations).where(eq(radioStations.id, id)).returning({ id: radioStations.id })
  if (!deleted.length) throw new NotFoundError(STATION_NOT_FOUND)
  return { id }
}

export async function setFavourite(db: Db, userId: string, id: string, favourite: boolean): Promise<{ id: string; favourite: boolean }> {
  const { radioFavourites } = tablesOf(db)
  await getStation(db, id)
  if (favourite) await db.insert(radioFavourites).values({ userId, stationId: id }).onConflictDoNothing()
  else await db.delete(radioFavourites).where(and(eq(radioFavourites.userId, userId), eq(radioFavourites.stationId, id)))
  return { id, favourite }
}

/** The title the station sends now (ICY metadata), or null when it sends none or cannot be reached. */
export async function nowPlaying(db: Db, id: string): Promise<{ id: string; title: string | null }> {
  const station = await getStation(db, id)
  return { id, title: await readNowPlaying(station.streamUrl, remotePolicy()) }
}
