-- Features left out of a zoom's tiles because every part of them there was smaller than the layer's
-- minimum size (a vector tile's grid unit by default), by zoom: {"0": 30, "1": 22, ...}. Counted by
-- the workers that cut, for the progress lines and `tilebeam status`; approximate under retries.
ALTER TABLE runs
  ADD COLUMN below_min_size jsonb NOT NULL DEFAULT '{}';
