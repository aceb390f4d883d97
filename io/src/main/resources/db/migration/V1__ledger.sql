-- The ledger: one row per work key. Its primary key, not application code, prevents duplicates.
-- Every time comes from the database clock (now()), never a worker's.
CREATE TABLE tiles (
  work_key        text        PRIMARY KEY,
  namespace       text        NOT NULL,
  layer           text        NOT NULL,
  tile_matrix_set text        NOT NULL,
  z               integer     NOT NULL,
  x               bigint      NOT NULL,
  y               bigint      NOT NULL,
  run_id          text        NOT NULL,  -- the claim's owner
  claimed_at      timestamptz NOT NULL,
  completed_at    timestamptz,
  failed_at       timestamptz,
  error_class     text,
  error_message   text,
  attempts        integer     NOT NULL DEFAULT 1,
  output_uri      text,
  checksum        text,
  feature_count   bigint
);

-- In-flight and stale work: the rows not yet completed, by age of their claim.
CREATE INDEX tiles_in_flight ON tiles (claimed_at) WHERE completed_at IS NULL;
CREATE INDEX tiles_by_layer ON tiles (namespace, layer, z);

CREATE TABLE runs (
  run_id      text        PRIMARY KEY,
  started_at  timestamptz NOT NULL DEFAULT now(),
  ended_at    timestamptz,
  status      text        NOT NULL,
  job_digest  text        NOT NULL,
  counts      jsonb
);
