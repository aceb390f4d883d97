package bench;

import com.onthegomap.planetiler.FeatureCollector;
import com.onthegomap.planetiler.Planetiler;
import com.onthegomap.planetiler.Profile;
import com.onthegomap.planetiler.config.Arguments;
import com.onthegomap.planetiler.reader.SourceFeature;
import java.nio.file.Path;

/**
 * The peer of scripts/bench/mvt-countries.sh: Planetiler on the same countries file, one polygon
 * layer named "countries" with tilebeam's MVT defaults: a buffer of 8 pixels, a simplification
 * tolerance of 1/16 pixel (one grid unit of 4096) and a minimum size of 1/16 pixel at every zoom.
 *
 * <p>Usage: CountriesPeer INPUT.geojson OUTPUT(.pmtiles|.mbtiles) [planetiler arguments]
 */
public final class CountriesPeer implements Profile {

  private static final double GRID_UNIT_PIXELS = 1.0 / 16;

  @Override
  public void processFeature(SourceFeature source, FeatureCollector features) {
    if (source.canBePolygon()) {
      features
          .polygon("countries")
          .setBufferPixels(8)
          .setPixelToleranceAtAllZooms(GRID_UNIT_PIXELS)
          .setMinPixelSize(GRID_UNIT_PIXELS)
          .setMinPixelSizeAtMaxZoom(GRID_UNIT_PIXELS)
          .setAttr("A3", source.getTag("A3"));
    }
  }

  @Override
  public String name() {
    return "countries-peer";
  }

  public static void main(String[] args) throws Exception {
    String[] rest = java.util.Arrays.copyOfRange(args, 2, args.length);
    Planetiler.create(Arguments.fromArgs(rest))
        .setProfile(new CountriesPeer())
        .addGeoJsonSource("countries", Path.of(args[0]))
        .overwriteOutput(Path.of(args[1]))
        .run();
  }
}
