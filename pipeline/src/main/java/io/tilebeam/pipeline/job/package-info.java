/**
 * The job: its YAML parsed into a {@link io.tilebeam.pipeline.job.JobSpec} (each layer's params
 * into the type of its kind) and resolved into a {@link io.tilebeam.pipeline.job.JobPlan} of {@link
 * io.tilebeam.pipeline.job.VectorLayer}s and {@link io.tilebeam.pipeline.job.RasterLayer}s, every
 * problem named by field before anything runs.
 */
package io.tilebeam.pipeline.job;
