// Verifying a module read without attribute sites (see verify_read_module.h).
#include "verifier/verify_read_module.h"

#include <memory>

namespace shardscope {

bool verifyReadModule(std::string_view text, const ir::ParseOptions& opts, const ir::Module& module,
                      ir::DiagnosticSink& sink, SitePlacement placement) {
  if (verifyModule(module, sink)) return true;
  ir::AttributeSites sites;
  ir::ParseOptions again = opts;
  again.progress = nullptr;  // the reading the caller followed is done
  again.attributeSites = &sites;
  ir::DiagnosticSink placed;
  if (std::unique_ptr<ir::Module> reread = ir::parseModule(text, again, placed)) {
    verifyModule(*reread, placed, &sites, placement);
    sink = std::move(placed);
  }
  return false;
}

}  // namespace shardscope
