// Words for plot titles and captions.
#pragma once
#include <QString>

namespace shardscope::plots {

// "1 table", "3 tables" (regular English plurals only).
inline QString countOf(qint64 n, const char* singular) {
  return QStringLiteral("%1 %2%3").arg(n).arg(QLatin1String(singular)).arg(n == 1 ? QString() : QStringLiteral("s"));
}

}  // namespace shardscope::plots
