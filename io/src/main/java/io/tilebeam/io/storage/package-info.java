/**
 * Object stores (GCS and S3-compatible) reached from the workers: settings read once at planning,
 * clients, conditional reads and writes, checksums.
 */
package io.tilebeam.io.storage;
