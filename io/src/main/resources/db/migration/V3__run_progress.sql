-- Progress of a running run, counted by its workers a batch at a time (claims per claim statement,
-- tiles published or failed per bundle), so that the launcher and `tilebeam status` can say how far
-- it is on any runner. Counts are approximate under retries: a retried bundle counts again.
ALTER TABLE runs
  ADD COLUMN planned     bigint,
  ADD COLUMN claimed     bigint NOT NULL DEFAULT 0,
  ADD COLUMN skipped     bigint NOT NULL DEFAULT 0,
  ADD COLUMN done        bigint NOT NULL DEFAULT 0,
  ADD COLUMN progress_at timestamptz;
