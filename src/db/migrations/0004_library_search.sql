-- Full-text search over the library index (FTS5, external content: the text lives once, in the
-- tables; these hold only the inverted index). unicode61 with remove_diacritics 2 folds case and
-- accents ("bjork" finds "Björk"); the 2- and 3-character prefix indexes keep "bj"* fast at a
-- million tracks. Triggers keep each index in step with its table, whoever writes it.
CREATE VIRTUAL TABLE `library_tracks_fts` USING fts5(title, artist, album, genre, content='library_tracks', content_rowid='seq', tokenize="unicode61 remove_diacritics 2", prefix='2 3');
--> statement-breakpoint
CREATE TRIGGER `library_tracks_fts_ai` AFTER INSERT ON `library_tracks` BEGIN
  INSERT INTO library_tracks_fts(rowid, title, artist, album, genre) VALUES (new.seq, new.title, new.artist, new.album, new.genre);
END;
--> statement-breakpoint
CREATE TRIGGER `library_tracks_fts_ad` AFTER DELETE ON `library_tracks` BEGIN
  INSERT INTO library_tracks_fts(library_tracks_fts, rowid, title, artist, album, genre) VALUES ('delete', old.seq, old.title, old.artist, old.album, old.genre);
END;
--> statement-breakpoint
CREATE TRIGGER `library_tracks_fts_au` AFTER UPDATE OF title, artist, album, genre ON `library_tracks` BEGIN
  INSERT INTO library_tracks_fts(library_tracks_fts, rowid, title, artist, album, genre) VALUES ('delete', old.seq, old.title, old.artist, old.album, old.genre);
  INSERT INTO library_tracks_fts(rowid, title, artist, album, genre) VALUES (new.seq, new.title, new.artist, new.album, new.genre);
END;
--> statement-breakpoint
CREATE VIRTUAL TABLE `library_albums_fts` USING fts5(name, artist, genre, content='library_albums', content_rowid='seq', tokenize="unicode61 remove_diacritics 2", prefix='2 3');
--> statement-breakpoint
CREATE TRIGGER `library_albums_fts_ai` AFTER INSERT ON `library_albums` BEGIN
  INSERT INTO library_albums_fts(rowid, name, artist, genre) VALUES (new.seq, new.name, new.artist, new.genre);
END;
--> statement-breakpoint
CREATE TRIGGER `library_albums_fts_ad` AFTER DELETE ON `library_albums` BEGIN
  INSERT INTO library_albums_fts(library_albums_fts, rowid, name, artist, genre) VALUES ('delete', old.seq, old.name, old.artist, old.genre);
END;
--> statement-breakpoint
CREATE TRIGGER `library_albums_fts_au` AFTER UPDATE OF name, artist, genre ON `library_albums` BEGIN
  INSERT INTO library_albums_fts(library_albums_fts, rowid, name, artist, genre) VALUES ('delete', old.seq, old.name, old.artist, old.genre);
  INSERT INTO library_albums_fts(rowid, name, artist, genre) VALUES (new.seq, new.name, new.artist, new.genre);
END;
--> statement-breakpoint
CREATE VIRTUAL TABLE `library_artists_fts` USING fts5(name, content='library_artists', content_rowid='seq', tokenize="unicode61 remove_diacritics 2", prefix='2 3');
--> statement-breakpoint
CREATE TRIGGER `library_artists_fts_ai` AFTER INSERT ON `library_artists` BEGIN
  INSERT INTO library_artists_fts(rowid, name) VALUES (new.seq, new.name);
END;
--> statement-breakpoint
CREATE TRIGGER `library_artists_fts_ad` AFTER DELETE ON `library_artists` BEGIN
  INSERT INTO library_artists_fts(library_artists_fts, rowid, name) VALUES ('delete', old.seq, old.name);
END;
--> statement-breakpoint
CREATE TRIGGER `library_artists_fts_au` AFTER UPDATE OF name ON `library_artists` BEGIN
  INSERT INTO library_artists_fts(library_artists_fts, rowid, name) VALUES ('delete', old.seq, old.name);
  INSERT INTO library_artists_fts(rowid, name) VALUES (new.seq, new.name);
END;
