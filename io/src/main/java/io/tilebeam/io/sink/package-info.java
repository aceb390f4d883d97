/**
 * Publishing: the idempotent tile sinks (local files, GCS, S3, PostGIS), PMTiles archives packed
 * from staged tiles, dead-letter and failure records; the PublishTiles stage.
 */
package io.tilebeam.io.sink;
