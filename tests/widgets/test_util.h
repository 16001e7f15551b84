// Helpers shared by the widgets tests.
#pragma once
#include <QColor>
#include <QDir>
#include <QFileInfo>
#include <QString>
#include <QStringList>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "api/document.h"

namespace shardscope::test {

// WCAG's contrast ratio of two colours (1 to 21): 4.5 for text, 3 for a
// control's edge.
inline double contrastRatio(const QColor& a, const QColor& b) {
  auto luminance = [](const QColor& c) {
    auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
  };
  const double la = luminance(a), lb = luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

inline QString sampleDir() { return QStringLiteral(SHARDSCOPE_SAMPLE_DIR); }

inline QStringList samplePaths() {
  QStringList out;
  const QDir dir(sampleDir());
  for (const QString& f : dir.entryList({QStringLiteral("*.mlir")}, QDir::Files, QDir::Name))
    out << dir.filePath(f);
  return out;
}

// Adds one row per sample: column "path".
inline void addSampleRows() {
  QTest::addColumn<QString>("path");
  for (const QString& p : samplePaths()) QTest::newRow(qPrintable(QFileInfo(p).fileName())) << p;
}

inline std::shared_ptr<api::Document> loadSample(const QString& name) {
  return api::loadDocument(QDir(sampleDir()).filePath(name).toStdString());
}

// @main of `ops` chained negates of its argument, which is sharded the sdy
// way or the GSPMD way (`mhlo.sharding`, imported after the parse, so the
// module changes then).
inline std::string shardedNegateChain(int ops, bool gspmd) {
  std::string text;
  if (!gspmd) text += "sdy.mesh @mesh = <[\"x\"=2]>\n";
  text += "func.func @main(%arg0: tensor<8x4xf32> ";
  text += gspmd ? "{mhlo.sharding = \"{devices=[2,1]<=[2]}\"}"
                : "{sdy.sharding = #sdy.sharding<@mesh, [{\"x\"}, {}]>}";
  text += ") -> tensor<8x4xf32> {\n";
  std::string prev = "%arg0";
  for (int i = 0; i < ops; ++i) {
    const std::string v = "%v" + std::to_string(i);
    text += "  " + v + " = stablehlo.negate " + prev + " : tensor<8x4xf32>\n";
    prev = v;
  }
  return text + "  return " + prev + " : tensor<8x4xf32>\n}\n";
}

// Bad inputs: name, text, expected 1-based line of the first error.
struct BadInput {
  const char* name;
  const char* text;
  int line;
};
inline const BadInput kBadInputs[] = {
    {"unknown_axis",
     "sdy.mesh @mesh = <[\"x\"=2]>\n"
     "func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{\"z\"}]>}) -> "
     "tensor<8xf32> {\n"
     "  return %arg0 : tensor<8xf32>\n"
     "}\n",
     2},
    {"syntax_error",
     "sdy.mesh @mesh = <[\"x\"=2]>\n"
     "func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
     "  %0 = stablehlo.negate %arg0 tensor<8xf32>\n"
     "  return %0 : tensor<8xf32>\n"
     "}\n",
     3},
    {"undefined_value",
     "func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
     "  %0 = stablehlo.negate %arg7 : tensor<8xf32>\n"
     "  return %0 : tensor<8xf32>\n"
     "}\n",
     2},
};

}  // namespace shardscope::test
