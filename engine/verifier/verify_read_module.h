// Verifying a module read without attribute sites, with the diagnostics a
// reading with them gives.
//
// The sites (ir::AttributeSites: where the reader found each attribute)
// place a verifier error at what is wrong inside an attribute, the unknown
// axis rather than the op. Recording them is a table as large as the module
// (65 MB at a million ops, and a sorted insert per attribute) that only a
// failing verification uses. So the module is read without them, and only
// when the verifier fails is the text read again with them and verified
// again; the diagnostics are then that second reading's (the sites change
// where problems are shown, never whether there are any):
//
//   ir::ParseOptions opts;                 // no attributeSites
//   auto module = ir::parseModule(text, opts, sink);
//   bool ok = module && verifyReadModule(text, opts, *module, sink);
//
// `module` itself stays as it is (a caller may be holding it).
#pragma once
#include <string_view>

#include "ir/diagnostics.h"
#include "ir/operation.h"
#include "ir/parser.h"
#include "verifier/verifier.h"

namespace shardscope {

// verifyModule(module, sink) (true when nothing was found). On a failure,
// `sink` holds what reading `text` with `opts` and attribute sites and
// verifying that gives, the sites placed by `placement`; what `sink` held
// before is replaced (it was that reading's own, without the sites).
bool verifyReadModule(std::string_view text, const ir::ParseOptions& opts, const ir::Module& module,
                      ir::DiagnosticSink& sink, SitePlacement placement = SitePlacement::Note);

}  // namespace shardscope
