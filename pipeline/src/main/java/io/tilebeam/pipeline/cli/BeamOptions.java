package io.tilebeam.pipeline.cli;

import io.tilebeam.transforms.crs.CrsMemo;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * Beam's options of one run, checked before the run does anything and built only when it needs
 * them. Building them is reflection over every options interface on the class path, a large part of
 * a rerun with nothing to do. So the first run of a build with a given list of options builds them
 * on a background thread while the run starts, and the memo beside the jar ({@link CrsMemo}, keyed
 * by the jar) remembers that this list was valid; later runs with the same list build them only
 * when there is work. A list never found valid is always built at once, so a bad option fails the
 * run before any claim, whether or not there is work.
 */
final class BeamOptions {

  private static final String KEY = "beam-options-valid:";

  private final List<String> args;
  private CompletableFuture<PipelineOptions> building;

  private BeamOptions(List<String> args) {
    this.args = List.copyOf(args);
  }

  /** The options of {@code args}, built from now on unless this jar found them valid before. */
  static BeamOptions start(List<String> args) {
    BeamOptions options = new BeamOptions(args);
    if (!options.knownValid()) {
      options.building();
    }
    return options;
  }

  /**
   * Checks that the options are valid: known from an earlier run of this jar, or built.
   *
   * @throws UsageException when they are not
   */
  void check() {
    if (!knownValid()) {
      get();
    }
  }

  /** Starts building the options in the background, unless begun already: the run has work. */
  void prepare() {
    building();
  }

  /** The options, built now if they are not yet. */
  PipelineOptions get() {
    return Background.join(building());
  }

  /** Whether building the options has begun. */
  synchronized boolean started() {
    return building != null;
  }

  private boolean knownValid() {
    return CrsMemo.known(key()) != null;
  }

  private String key() {
    // NUL separates the options: no option holds one.
    return KEY + String.join("\u0000", args);
  }

  private synchronized CompletableFuture<PipelineOptions> building() {
    if (building == null) {
      building =
          Background.start(
              "tilebeam-beam-options",
              () -> {
                PipelineOptions built = Tilebeam.beamOptions(args);
                CrsMemo.get(key(), () -> "valid");
                return built;
              });
    }
    return building;
  }
}
