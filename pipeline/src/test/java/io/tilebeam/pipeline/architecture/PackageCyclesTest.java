package io.tilebeam.pipeline.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * No package cycle inside any module: within {@code transforms}, {@code io} and {@code pipeline}
 * the arrows between top-level packages point one way only, so a package can be read, tested and
 * replaced with what lies below it. Maven already keeps the modules themselves in one direction.
 *
 * <p>Only main code is checked: the classes come from the modules' {@code target/classes} (or their
 * jars), never from test classes or the io test-jar.
 */
class PackageCyclesTest {

  private static final Pattern TEST_JAR = Pattern.compile(".*-tests\\.jar.*");

  /** Main classes only: neither test classes nor the test-jar the pipeline's tests borrow. */
  static final ImportOption MAIN_ONLY =
      location -> !location.contains("/test-classes/") && !location.matches(TEST_JAR);

  @ParameterizedTest
  @ValueSource(strings = {"codec", "transforms", "io", "pipeline"})
  void noModuleHasAPackageCycle(String module) {
    String root = "io.tilebeam." + module;
    JavaClasses classes = new ClassFileImporter().withImportOption(MAIN_ONLY).importPackages(root);
    assertTrue(classes.size() > 20, () -> module + ": its main classes were not found");
    cyclesAmongPackagesOf(root).check(classes);
  }

  /** The rule sees a cycle where there is one (two test packages that import each other). */
  @Test
  void aCycleIsFound() {
    String root = "io.tilebeam.pipeline.architecture.cyclefixture";
    JavaClasses classes = new ClassFileImporter().importPackages(root);
    EvaluationResult result = cyclesAmongPackagesOf(root).evaluate(classes);
    assertTrue(result.hasViolation(), "the fixture's left <-> right cycle is reported");
    assertFalse(result.getFailureReport().getDetails().isEmpty());
  }

  /** Each package directly under {@code root}, with its sub-packages, is one slice. */
  private static ArchRule cyclesAmongPackagesOf(String root) {
    return slices().matching(root + ".(*)..").should().beFreeOfCycles();
  }
}
