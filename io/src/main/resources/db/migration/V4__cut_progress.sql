-- Progress of reading and cutting, counted by the workers that read sources: features read and
-- pieces cut. A big job spends its first minutes there, before any tile is done, and its progress
-- lines must show it moving. Approximate under retries, like the tile counts.
ALTER TABLE runs
  ADD COLUMN features_read bigint NOT NULL DEFAULT 0,
  ADD COLUMN pieces_cut    bigint NOT NULL DEFAULT 0;
