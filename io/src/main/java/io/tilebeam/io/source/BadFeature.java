package io.tilebeam.io.source;

/**
 * A feature that cannot be used, in any source format: where it is (its id, or its place in the
 * source) and why. It costs only itself: it becomes a dead letter and the reading goes on.
 *
 * @param featureId the feature's id, or where it is when it has none that can be read
 * @param reason why it cannot be used
 */
public record BadFeature(String featureId, String reason) {}
