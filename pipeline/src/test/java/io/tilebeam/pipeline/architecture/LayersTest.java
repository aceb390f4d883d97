package io.tilebeam.pipeline.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import io.tilebeam.codec.archfixture.CodecThatReadsTheLedger;
import io.tilebeam.io.ledger.Ledger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layers ARCHITECTURE.md draws, each using only those below it: codecs (bytes in, bytes out)
 * under the engines ({@code transforms}: tiling, keys, the vector and raster engines) under the
 * outside systems ({@code io}: ledger, sources, sinks, stores) under the assembly ({@code
 * pipeline}). Maven keeps the modules in that order; these rules keep what each layer may reach:
 * codecs nothing of Beam or any system, engines nothing of a database, store or network client.
 */
class LayersTest {

  private static JavaClasses main;

  @BeforeAll
  static void importMainClasses() {
    main =
        new ClassFileImporter()
            .withImportOption(PackageCyclesTest.MAIN_ONLY)
            .importPackages("io.tilebeam");
    assertTrue(main.size() > 300, "tilebeam's main classes were not found: " + main.size());
  }

  /** The four layers, each reached only from those above it. */
  static ArchRule layers() {
    return layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .layer("codecs")
        .definedBy("io.tilebeam.codec..")
        .layer("engines")
        .definedBy("io.tilebeam.transforms..")
        .layer("systems")
        .definedBy("io.tilebeam.io..")
        .layer("assembly")
        .definedBy("io.tilebeam.pipeline..")
        .whereLayer("assembly")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("systems")
        .mayOnlyBeAccessedByLayers("assembly")
        .whereLayer("engines")
        .mayOnlyBeAccessedByLayers("systems", "assembly")
        .whereLayer("codecs")
        .mayOnlyBeAccessedByLayers("engines", "systems", "assembly");
  }

  /** Codecs are bytes in and bytes out: no Beam, no database, no store, no network. */
  static ArchRule codecsArePure() {
    return noClasses()
        .that()
        .resideInAPackage("io.tilebeam.codec..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "org.apache.beam..",
            "org.apache.sis..",
            "java.sql..",
            "java.net..",
            "org.postgresql..",
            "com.google.cloud..",
            "software.amazon..",
            "io.tilebeam.transforms..",
            "io.tilebeam.io..",
            "io.tilebeam.pipeline..");
  }

  /** The engines compute: no database, store or network client. */
  static ArchRule enginesReachNoSystem() {
    return noClasses()
        .that()
        .resideInAPackage("io.tilebeam.transforms..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "java.sql..",
            "java.net.http..",
            "org.postgresql..",
            "com.google.cloud..",
            "software.amazon..",
            "org.flywaydb..");
  }

  /** Tile encodings encode: they neither read sources, publish, nor touch the ledger. */
  static ArchRule formatsOnlyEncode() {
    return noClasses()
        .that()
        .resideInAPackage("io.tilebeam.io.format..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "io.tilebeam.io.ledger..", "io.tilebeam.io.sink..", "io.tilebeam.io.source..");
  }

  @Test
  void eachLayerUsesOnlyThoseBelowIt() {
    layers().check(main);
  }

  @Test
  void codecsArePureCode() {
    codecsArePure().check(main);
  }

  @Test
  void enginesReachNoOutsideSystem() {
    enginesReachNoSystem().check(main);
  }

  @Test
  void formatsNeitherReadNorPublish() {
    formatsOnlyEncode().check(main);
  }

  /** The rules see a violation where there is one: a (test) codec that names the ledger. */
  @Test
  void aCodecReachingTheLedgerIsReported() {
    JavaClasses bad =
        new ClassFileImporter().importClasses(CodecThatReadsTheLedger.class, Ledger.class);
    EvaluationResult layered = layers().evaluate(bad);
    assertTrue(layered.hasViolation(), "the layered rule lets a codec reach the ledger");
    assertTrue(
        layered.getFailureReport().toString().contains("CodecThatReadsTheLedger"),
        layered.getFailureReport().toString());
    assertTrue(codecsArePure().evaluate(bad).hasViolation(), "the codec rule lets it pass");
  }
}
