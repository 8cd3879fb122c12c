package dev.kernellab.lab;

import dev.kernellab.workloads.LatencyDistribution;
import java.awt.Color;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The report's two charts, drawn with XChart: the latency histogram (logarithmic bins and
 * counts, one series per configuration) and the latency over time (the worst sample of each
 * stretch of the run). Each comes as PNG bytes and SVG text.
 */
final class Charts {

  /** Bins to a factor of ten in the histogram chart: fine enough to see a mode, coarse enough to be smooth. */
  static final int BINS_PER_DECADE = 20;

  /** Where the histogram chart draws an empty bin: below one sample on its logarithmic axis. */
  private static final double FLOOR = 0.5;

  private static final int WIDTH = 900;
  private static final int HEIGHT = 520;

  static {
    // drawn off screen: a library user's JVM with no display must not look for one
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
  }

  private Charts() {}

  /** A chart in both formats. */
  static final class Chart {
    private final byte[] png;
    private final String svg;

    Chart(byte[] png, String svg) {
      this.png = png.clone();
      this.svg = svg;
    }

    byte[] png() {
      return png.clone();
    }

    String svg() {
      return svg;
    }
  }

  /** The latency histogram of each configuration. */
  static Chart histogram(String title, List<String> names, List<LatencyDistribution> ds) {
    XYChart chart = base(title, "latency (us)", "samples");
    chart.getStyler().setXAxisLogarithmic(true).setYAxisLogarithmic(true);
    chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Step);
    for (int i = 0; i < ds.size(); i++) {
      List<Double> x = new ArrayList<>();
      List<Double> y = new ArrayList<>();
      LatencyDistribution.Bin last = null;
      for (LatencyDistribution.Bin b : ds.get(i).logBins(BINS_PER_DECADE)) {
        if (x.isEmpty() && b.count() == 0) {
          continue;
        }
        // a logarithmic axis has no zero: an empty bin is drawn at the floor, below one sample
        x.add(b.lowUs());
        y.add(b.count() == 0 ? FLOOR : b.count());
        last = b;
      }
      if (last != null) {
        // a step chart draws a bin from its point to the next: the last bin needs its end
        x.add(last.highUs());
        y.add(y.get(y.size() - 1));
      }
      if (!x.isEmpty()) {
        chart.addSeries(names.get(i), x, y).setMarker(SeriesMarkers.NONE);
      }
    }
    chart.getStyler().setYAxisMin(FLOOR);
    return encode(chart);
  }

  /** The worst sample of each stretch of the run, per configuration. */
  static Chart overTime(String title, List<String> names, List<LatencyDistribution> ds) {
    long slotNs = ds.stream().mapToLong(LatencyDistribution::timelineSlotNs).max().orElse(1);
    XYChart chart = base(title, "simulated time (s)",
        "worst latency per " + Durations.latency(slotNs) + " (us)");
    chart.getStyler().setYAxisLogarithmic(true);
    // a dot per stretch, as latency-over-time plots of cyclictest runs draw them: a line
    // between neighbours would suggest samples that were never taken
    chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter).setMarkerSize(3);
    for (int i = 0; i < ds.size(); i++) {
      List<Double> x = new ArrayList<>();
      List<Double> y = new ArrayList<>();
      for (LatencyDistribution.Point p : ds.get(i).timeline()) {
        x.add(p.startNs() / 1e9);
        y.add(Math.max(1, p.maxNs()) / 1e3);
      }
      if (!x.isEmpty()) {
        chart.addSeries(names.get(i), x, y).setMarker(SeriesMarkers.CIRCLE);
      }
    }
    return encode(chart);
  }

  private static XYChart base(String title, String xTitle, String yTitle) {
    XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
        .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
    chart.getStyler().setChartBackgroundColor(Color.WHITE)
        .setLegendPosition(Styler.LegendPosition.InsideNE)
        .setAntiAlias(true);
    chart.getStyler().setYAxisDecimalPattern("#,##0.#").setXAxisDecimalPattern("#,##0.#");
    chart.getStyler().setPlotBackgroundColor(Color.WHITE).setPlotBorderVisible(true);
    return chart;
  }

  private static Chart encode(XYChart chart) {
    try {
      byte[] png = BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
      ByteArrayOutputStream svg = new ByteArrayOutputStream();
      VectorGraphicsEncoder.saveVectorGraphic(chart, svg, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
      return new Chart(png, svg.toString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IllegalStateException("cannot draw the chart: " + e.getMessage(), e);
    }
  }
}
