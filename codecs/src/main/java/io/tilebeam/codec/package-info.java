/**
 * Pure file codecs, bytes in and bytes out, in packages by format; nothing here imports Beam, the
 * ledger, a store or the rest of tilebeam (ArchitectureTest checks it). {@link
 * io.tilebeam.codec.ByteRanges} is the one way codecs read: a file, an object or a test's bytes,
 * behind the same interface.
 */
package io.tilebeam.codec;
