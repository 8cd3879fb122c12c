package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

/** {@code -Dkernellab.fastForward} takes true or false, and nothing else silently. */
class FastForwardSwitchTests {

  @Test
  void unsetOrTrueIsOnFalseIsOffAnythingElseIsRefused() {
    assertThat(FastForward.switchedOn(null)).isTrue();
    assertThat(FastForward.switchedOn("true")).isTrue();
    assertThat(FastForward.switchedOn("false")).isFalse();
    assertThatIllegalArgumentException().isThrownBy(() -> FastForward.switchedOn("0"))
        .withMessage("-Dkernellab.fastForward=0: true or false");
    assertThatIllegalArgumentException().isThrownBy(() -> FastForward.switchedOn("FALSE"))
        .withMessage("-Dkernellab.fastForward=FALSE: true or false");
  }
}
