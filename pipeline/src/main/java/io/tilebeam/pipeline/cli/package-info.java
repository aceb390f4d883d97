/**
 * The command line: run, plan, status, reap, verify and serve, their exit codes, reports and
 * progress lines, and the pack stage run after the graph.
 */
package io.tilebeam.pipeline.cli;
