package io.tilebeam.io.sink;

import io.tilebeam.io.format.TileFormat;
import io.tilebeam.transforms.crs.CrsRef;
import java.io.Serializable;

/** Where and how one layer's tiles are published: the output location, format and CRS. */
public record PublishSpec(String outputUri, TileFormat format, CrsRef targetCrs)
    implements Serializable {}
