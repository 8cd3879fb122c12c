package dev.kernellab.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The address-space bookkeeping fork, exit and munmap walk (mm/mmap.c do_mmap_pgoff,
 * do_munmap, kernel/fork.c dup_mmap, 2.4.17): resident pages are the sum over the vmas, and a
 * fork's copy is the parent's vmas page for page.
 */
class MmTests {

  @Test
  void residentPagesAreTheSumOverTheVmas() {
    Mm mm = new Mm(1);
    int text = mm.mmap(100);
    int heap = mm.mmap(0);
    mm.fault(heap, 256);
    assertThat(mm.vmaCount()).isEqualTo(2);
    assertThat(mm.vmaPages(text)).isEqualTo(100);
    assertThat(mm.vmaPages(heap)).isEqualTo(256);
    assertThat(mm.residentPages()).isEqualTo(356);
    assertThat(mm.largestVmaPages()).isEqualTo(256);
  }

  @Test
  void munmapReturnsTheVmasPagesAndTheLastVmaTakesItsIndex() {
    Mm mm = new Mm(1);
    mm.mmap(10);
    mm.mmap(20);
    mm.mmap(30);
    assertThat(mm.munmap(0)).isEqualTo(10);
    assertThat(mm.vmaCount()).isEqualTo(2);
    assertThat(mm.vmaPages(0)).isEqualTo(30);
    assertThat(mm.vmaPages(1)).isEqualTo(20);
    assertThat(mm.residentPages()).isEqualTo(50);
    assertThatThrownBy(() -> mm.vmaPages(2)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> mm.vmaPages(-1)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void manyVmasFitAndKeepTheirPages() {
    Mm mm = new Mm(1);
    for (int i = 0; i < 20; i++) {
      assertThat(mm.mmap(i)).isEqualTo(i);
    }
    assertThat(mm.vmaCount()).isEqualTo(20);
    assertThat(mm.vmaPages(19)).isEqualTo(19);
    assertThat(mm.residentPages()).isEqualTo(190);
  }

  @Test
  void anAddressSpaceGivenASizeIsOneVmaOrNone() {
    Mm sized = new Mm(2, 2_400);
    assertThat(sized.vmaCount()).isEqualTo(1);
    assertThat(sized.residentPages()).isEqualTo(2_400);
    assertThat(new Mm(3, 0).vmaCount()).isZero();
    assertThat(new Mm(3).largestVmaPages()).isZero();
    assertThatIllegalArgumentException().isThrownBy(() -> new Mm(4, -1));
  }

  @Test
  void forkCopiesEveryVmaAndTheCopiesThenDiverge() {
    Mm parent = new Mm(1);
    parent.mmap(10);
    parent.mmap(20);
    Mm child = parent.copy(7);
    assertThat(child.id()).isEqualTo(7);
    assertThat(child.vmaCount()).isEqualTo(2);
    assertThat(child.vmaPages(0)).isEqualTo(10);
    assertThat(child.vmaPages(1)).isEqualTo(20);
    assertThat(child.residentPages()).isEqualTo(30);
    child.fault(0, 5);
    assertThat(parent.vmaPages(0)).isEqualTo(10);
    assertThat(parent.residentPages()).isEqualTo(30);
    assertThat(parent).hasToString("mm1{2 vmas, 30 pages}");
  }

  @Test
  void negativePageCountsAreRejected() {
    Mm mm = new Mm(1);
    assertThatIllegalArgumentException().isThrownBy(() -> mm.mmap(-1));
    int v = mm.mmap(0);
    assertThatIllegalArgumentException().isThrownBy(() -> mm.fault(v, -1));
    assertThatThrownBy(() -> mm.fault(5, 1)).isInstanceOf(IndexOutOfBoundsException.class);
  }
}
