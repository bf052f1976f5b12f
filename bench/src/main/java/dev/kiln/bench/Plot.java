package dev.kiln.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;

/**
 * A line chart written as PNG with Java2D (headless, no dependency): one line per series, x the
 * log2 of the size, y a rate from 0 up.
 */
final class Plot {
  private static final int WIDTH = 900;
  private static final int HEIGHT = 560;
  private static final int LEFT = 80;
  private static final int RIGHT = 250;
  private static final int TOP = 50;
  private static final int BOTTOM = 60;
  private static final Color[] COLORS = {new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c),
      new Color(0xd62728), new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f)};

  private final String title;
  private final String xLabel;
  private final String yLabel;
  private final Map<String, Map<Integer, Double>> series = new LinkedHashMap<>();

  Plot(String title, String xLabel, String yLabel) {
    this.title = title;
    this.xLabel = xLabel;
    this.yLabel = yLabel;
  }

  /** Adds the point (log2 n, value) to the series {@code name}. */
  Plot point(String name, long n, double value) {
    series.computeIfAbsent(name, k -> new LinkedHashMap<>()).put(Long.numberOfTrailingZeros(n), value);
    return this;
  }

  boolean isEmpty() {
    return series.isEmpty();
  }

  void write(Path file) throws IOException {
    System.setProperty("java.awt.headless", "true");
    BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, WIDTH, HEIGHT);
    List<Integer> xs = series.values().stream().flatMap(s -> s.keySet().stream()).distinct().sorted().toList();
    int xMin = xs.getFirst();
    int xMax = Math.max(xs.getLast(), xMin + 1);
    double yMax = niceCeiling(series.values().stream().flatMap(s -> s.values().stream())
        .mapToDouble(Double::doubleValue).max().orElse(1));
    int plotWidth = WIDTH - LEFT - RIGHT;
    int plotHeight = HEIGHT - TOP - BOTTOM;
    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
    g.drawString(title, LEFT, TOP - 20);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    for (int k = 0; k <= 5; k++) { // horizontal grid and y ticks
      int y = TOP + plotHeight - k * plotHeight / 5;
      g.setColor(new Color(0xdddddd));
      g.drawLine(LEFT, y, LEFT + plotWidth, y);
      g.setColor(Color.BLACK);
      g.drawString(String.format(yMax >= 50 ? "%.0f" : "%.2f", yMax * k / 5), 10, y + 4);
    }
    for (int x : xs) {
      int px = LEFT + (x - xMin) * plotWidth / (xMax - xMin);
      g.drawString("2^" + x, px - 10, TOP + plotHeight + 20);
    }
    g.drawString(xLabel, LEFT + plotWidth / 2 - 25, HEIGHT - 15);
    g.drawString(yLabel, 10, TOP - 5);
    g.drawRect(LEFT, TOP, plotWidth, plotHeight);
    int index = 0;
    for (Map.Entry<String, Map<Integer, Double>> entry : series.entrySet()) {
      Color color = COLORS[index % COLORS.length];
      g.setColor(color);
      g.setStroke(new BasicStroke(2f));
      int previousX = -1;
      int previousY = -1;
      for (int x : entry.getValue().keySet().stream().sorted().toList()) {
        int px = LEFT + (x - xMin) * plotWidth / (xMax - xMin);
        int py = TOP + plotHeight - (int) Math.round(entry.getValue().get(x) / yMax * plotHeight);
        g.fillOval(px - 4, py - 4, 8, 8);
        if (previousX >= 0) {
          g.drawLine(previousX, previousY, px, py);
        }
        previousX = px;
        previousY = py;
      }
      int legendY = TOP + 15 + 20 * index;
      g.drawLine(LEFT + plotWidth + 15, legendY - 4, LEFT + plotWidth + 40, legendY - 4);
      g.setColor(Color.BLACK);
      g.drawString(entry.getKey(), LEFT + plotWidth + 45, legendY);
      index++;
    }
    g.dispose();
    ImageIO.write(image, "png", file.toFile());
  }

  /** The smallest of 1, 2, 2.5 or 5 times a power of ten at or above {@code value}. */
  private static double niceCeiling(double value) {
    double power = Math.pow(10, Math.floor(Math.log10(value)));
    for (double step : new double[] {1, 2, 2.5, 5, 10}) {
      if (step * power >= value) {
        return step * power;
      }
    }
    return 10 * power;
  }
}
