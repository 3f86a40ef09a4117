// Internet radio: the stations admins keep (a name, the stream's URL, an optional homepage) and
// each member's favourites among them. A station's URLs passed the remote-folder address policy
// when they were saved; the stream is checked again each time it is opened (services/radio.ts).
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { newId, now } from './columns'
import { users } from './users'

export const radioStations = sqliteTable(
  'radio_stations',
  {
    id: text().primaryKey().$defaultFn(newId),
    name: text().notNull(),
    streamUrl: text().notNull(),
    /** Null: the station has no homepage. */
    homepageUrl: text(),
    /** Who added and who last changed it; null once that account is deleted. */
    createdBy: text().references(() => users.id, { onDelete: 'set null' }),
    updatedBy: text().references(() => users.id, { onDelete: 'set null' }),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
    updatedAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
  },
  (t) => [index('radio_stations_name_idx').on(t.name)],
)

export const radioFavourites = sqliteTable(
  'radio_favourites',
  {
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    stationId: text()
      .notNull()
      .references(() => radioStations.id, { onDelete: 'cascade' }),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(now),
  },
  (t) => [primaryKey({ columns: [t.userId, t.stationId] }), index('radio_favourites_station_idx').on(t.stationId)],
)

export type RadioStation = typeof radioStations.$inferSelect
