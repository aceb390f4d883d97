package io.tilebeam.transforms.cut;

import java.util.List;

/**
 * Where a {@link TilePiece} writes its structure (WKB's: type codes, part counts, points, lines and
 * polygons), so that one walk of the piece serves every encoding: {@link Wkb} and {@link
 * GridPiece}.
 */
interface PieceWriter {

  /** The start of a geometry of {@code type}, a WKB type code. */
  PieceWriter header(int type);

  /** A count, such as the number of parts of a multi-geometry. */
  PieceWriter integer(int n);

  /** A point. */
  void point(double x, double y);

  /** A line from its coordinates. */
  void lineString(double[] xy);

  /** A polygon from rings without closing points. */
  void polygon(double[] shell, List<double[]> holes);
}
