// Id distribution: rank / frequency of the ids of each table on log-log
// axes (rank 1 = the most looked-up id). A Zipf(s) input is a straight line
// of slope -s; hot ids show as a flat head; a uniform input is flat.
// Example: zipf_dropping.json's "user" table (Zipf 1.3 + 8 hot ids) falls
// steeply after a plateau of 8 ids, "item" (uniform) stays near 1.
#pragma once
#include <QString>
#include <cstdint>
#include <string>
#include <vector>

#include "sparsecore_plot.h"

namespace shardscope::sc {
struct Job;
}

namespace shardscope::plots {

// Rank / frequency curves, one per table (features of a table are merged).
struct IdDistribution {
  struct Series {
    std::string table;
    std::vector<double> rank;   // 1-based, log-spaced sample of the ranks
    std::vector<double> count;  // lookups of the id at that rank
    int64_t lookups = 0;        // ids looked up (before the in-sample merge)
    int64_t distinct = 0;       // distinct ids
    int64_t topCount = 0;       // lookups of the hottest id
    double slope = 0;           // least-squares slope of log count over log rank
    bool operator==(const Series&) const = default;
  };
  std::vector<Series> series;
  bool operator==(const IdDistribution&) const = default;
};

// Counts the ids of every table of `job` (pure, thread-safe; sorting, so
// O(ids log ids)); at most `maxPoints` points per curve.
IdDistribution computeIdDistribution(const sc::Job& job, int maxPoints = 256);

class IdDistributionPlot : public SparseCorePlot {
  Q_OBJECT
 public:
  explicit IdDistributionPlot(QWidget* parent = nullptr);
  // Draws at most `maxSeries` tables (the most looked-up ones; 10 colours).
  void setDistribution(const IdDistribution& distribution, int maxSeries = 10);
  int seriesCount() const { return seriesCount_; }
  // Narrower than this, the legend (one entry of two lines per table) goes
  // under the axes, in as many columns as fit, instead of beside them,
  // where it was cut at the right (times the text scale: presentation
  // mode's larger legend needs more).
  static constexpr int kLegendBesideMinWidth = 600;
  bool legendBelow() const { return legendBelow_; }

 protected:
  void resizeEvent(QResizeEvent* e) override;
  void layOutFor(int width, double scale) const override;

 private:
  int seriesCount_ = 0;
  mutable bool legendBelow_ = false;
};

}  // namespace shardscope::plots
