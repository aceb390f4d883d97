/**
 * PostgreSQL connections: URLs (passwords masked in messages) and timeouts, shared by the ledger
 * and the PostGIS sources and outputs.
 */
package io.tilebeam.io.postgres;
