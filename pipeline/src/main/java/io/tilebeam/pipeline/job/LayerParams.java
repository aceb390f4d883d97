package io.tilebeam.pipeline.job;

/**
 * A layer's {@code params} as its job gives them, parsed once into the type of the layer's kind:
 * {@link VectorParams} for a layer of features, {@link RasterParams} for a layer of pixels. The
 * defaults are filled in at planning, where the layer's source and output are known.
 */
public sealed interface LayerParams permits VectorParams, RasterParams {}
