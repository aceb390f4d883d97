/**
 * The map preview of an output directory: which layers it can show ({@link
 * io.tilebeam.pipeline.preview.PreviewLayers}), the page and its libraries written beside the tiles
 * ({@link io.tilebeam.pipeline.preview.PreviewFiles}), and {@code tilebeam serve} ({@link
 * io.tilebeam.pipeline.preview.PreviewServer}).
 */
package io.tilebeam.pipeline.preview;
