/** The graph: every stage applied in order for a planned job. */
package io.tilebeam.pipeline.graph;
