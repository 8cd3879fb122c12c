/** The in-tree patches run the testkit's contract suite. */
package dev.kernellab.it.contracts;
