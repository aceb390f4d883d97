/**
 * Work keys: a tile's {@link io.tilebeam.transforms.key.TileWork} (everything that decides its
 * output) and its {@link io.tilebeam.transforms.key.WorkKey} (base32 SHA-256 of its canonical
 * JSON); the KeyWork stage.
 */
package io.tilebeam.transforms.key;
