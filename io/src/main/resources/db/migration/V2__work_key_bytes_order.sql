-- Work keys are lower-case base32, so byte order is their order. Comparing bytes (collation "C")
-- instead of the database locale's collation makes every primary-key probe cheaper: claims, the
-- rerun check and commits all look keys up by the hundred thousand. It also makes key order the
-- same on every server, whatever its locale.
ALTER TABLE tiles ALTER COLUMN work_key TYPE text COLLATE "C";
