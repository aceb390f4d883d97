package io.tilebeam.transforms.repair;

/** The root lookup of a union-find forest kept in a parent array, shared by the repair steps. */
final class UnionFind {

  private UnionFind() {}

  /** The root of {@code i}'s tree, halving the path on the way. */
  static int root(int[] parent, int i) {
    while (parent[i] != i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  }
}
