/**
 * What becomes of a tile and a feature: published, failed with its reason, or dead-lettered; the
 * values CommitLedger and the records take.
 */
package io.tilebeam.transforms.outcome;
