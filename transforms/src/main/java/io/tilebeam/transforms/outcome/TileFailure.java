package io.tilebeam.transforms.outcome;

import io.tilebeam.transforms.key.TileWork;
import io.tilebeam.transforms.key.WorkKey;
import java.io.Serializable;

/**
 * A tile that failed permanently: the dead-letter record. {@code errorClass} is a stable category
 * (for example {@code geometry}, {@code crs}, {@code source}), {@code message} the reason.
 */
public record TileFailure(WorkKey key, TileWork work, String errorClass, String message)
    implements Serializable {}
