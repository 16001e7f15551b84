// Bracket-aware scanning of MLIR source text, for the what-if rewrites
// (what_if_edit.h): find the bracket that closes another, a token at the top
// level of a span, the entries of a bracketed list, the lines of an op.
// Strings ("...") are skipped; `->` is not a closing `>`.
//
//   matchBracket("[<@m, [{}]>, <@m, []>]", 0)  == 22 (just past the `]`)
//   splitTopLevel(s, 1, 21)  -> the spans of `<@m, [{}]>` and `<@m, []>`
#pragma once
#include <QString>
#include <utility>
#include <vector>

#include "ir/operation.h"

namespace shardscope::widgets {

// Index just past the bracket matching the one at `open` ('<', '{', '[',
// '('), or -1 if unbalanced.
qsizetype matchBracket(const QString& s, qsizetype open);

// Position of `needle` in s[from, to) outside brackets and strings (the
// first, or with `last` the last one), or -1.
qsizetype findTopLevel(const QString& s, const QString& needle, qsizetype from, qsizetype to,
                       bool last = false);

// The comma-separated entries of s[from, to) (at the top level of that
// span), each trimmed of surrounding white space. Empty for a blank span.
std::vector<std::pair<qsizetype, qsizetype>> splitTopLevel(const QString& s, qsizetype from,
                                                           qsizetype to);

// [start, end) of line `line` (1-based) in `s`, or {-1, -1}.
std::pair<qsizetype, qsizetype> lineSpan(const QString& s, int line);

// Position of `name` as a whole token in s[from, to), or -1.
qsizetype findName(const QString& s, const QString& name, qsizetype from, qsizetype to);

// End of the type starting at `at` (`tensor<8x16xf32>`, `!stablehlo.token`,
// `i32`), or -1.
qsizetype typeEnd(const QString& s, qsizetype at);

// The source text of an op with regions, split where its regions start and
// end (all from the op's source line; -1 when the text does not hold it):
//   %0:2 = stablehlo.while(...) : ... attributes {..}     <- header
//     cond { ...nested ops... } do { ... }                <- regions
//   }) {sdy.sharding = ...} : (...) -> ...                 <- tail (generic form)
struct RegionOpText {
  qsizetype opAt = -1;        // the op's name (its opening quote in generic form)
  qsizetype headerEnd = -1;   // start of the line of the first nested op
  qsizetype regionsEnd = -1;  // just past the bracket closing the last region
  qsizetype end = -1;         // end of the op's last line
};
RegionOpText regionOpText(const QString& s, const ir::Op& op);

}  // namespace shardscope::widgets
