/** Canonical JSON and SHA-256: the bytes keys and checksums are made from. */
package io.tilebeam.transforms.digest;
