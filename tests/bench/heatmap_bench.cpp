// Redraw time of the FDO statistics heatmap at scale (issue target: a
// 512-SparseCore x 100-table heatmap redraws in under 100 ms).
//
//   build/bin/heatmap_bench [PARTITIONS] [TABLES] [REPEAT]   (default 512 100 20)
//
// Runs offscreen. For each repeat: setMatrix (fill the colour map) and a
// full replot into the widget's buffer at 1400 x 800, and a resize redraw
// (what a user dragging a splitter causes). Prints the median and the worst
// of each. (No peer: nothing else here draws this picture.)
#include <QApplication>
#include <QElapsedTimer>
#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include "partition_heatmap_plot.h"
#include "sparsecore/fdo_stats.h"

using namespace shardscope;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  const int partitions = argc > 1 ? std::max(1, atoi(argv[1])) : 512;
  const int tables = argc > 2 ? std::max(1, atoi(argv[2])) : 100;
  const int repeat = argc > 3 ? std::max(1, atoi(argv[3])) : 20;

  // Zipf-like load: a few hot partitions per table.
  std::mt19937_64 rng(7);
  sc::StatMatrix m;
  m.cols = size_t(partitions);
  m.values.resize(size_t(partitions) * size_t(tables));
  std::vector<std::string> names;
  for (int t = 0; t < tables; ++t) {
    names.push_back("table_" + std::to_string(t));
    for (int p = 0; p < partitions; ++p)
      m.values[size_t(t) * size_t(partitions) + size_t(p)] =
          int64_t(64 + rng() % 64 + (p % 97 == t % 97 ? 900 : 0));
  }
  QStringList xNames;
  for (const std::string& n : names) xNames << QString::fromStdString(n);

  plots::PartitionHeatmapPlot plot;
  plot.resize(1400, 800);
  plot.show();
  app.processEvents();
  std::vector<double> fill, resize;
  for (int i = 0; i < repeat; ++i) {
    QElapsedTimer t;
    t.start();
    plot.setMatrix(QStringLiteral("bench"), m, QStringLiteral("partition"), QStringLiteral("table"), xNames);
    app.processEvents();
    fill.push_back(double(t.nsecsElapsed()) / 1e6);
    t.restart();
    plot.resize(i % 2 ? QSize(1400, 800) : QSize(1300, 760));
    app.processEvents();
    resize.push_back(double(t.nsecsElapsed()) / 1e6);
  }
  std::printf("heatmap %d partitions x %d tables, %d repeats, offscreen 1400x800\n", partitions, tables, repeat);
  std::printf("  set data + replot:  median %.1f ms, worst %.1f ms\n", median(fill),
              *std::max_element(fill.begin(), fill.end()));
  std::printf("  resize redraw:      median %.1f ms, worst %.1f ms\n", median(resize),
              *std::max_element(resize.begin(), resize.end()));
  std::printf("  target: under 100 ms: %s\n",
              std::max(*std::max_element(fill.begin(), fill.end()), *std::max_element(resize.begin(), resize.end())) < 100
                  ? "met"
                  : "NOT met");
  return 0;
}
