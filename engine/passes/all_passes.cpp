// The registry of every pass, by sdy_opt name. Each pass lives in the folder
// of its concept; this file only lists them (one line per pass).
#include "passes/pass.h"

namespace shardscope::passes {

// Registration functions, defined next to each pass.
void registerImportPasses(std::vector<PassInfo>& out);
void registerPropagationPasses(std::vector<PassInfo>& out);
void registerRulePasses(std::vector<PassInfo>& out);
void registerExportPasses(std::vector<PassInfo>& out);
void registerPipelinePasses(std::vector<PassInfo>& out);
void registerReshardToCollectivesPass(std::vector<PassInfo>& out);
void registerCanonicalizePass(std::vector<PassInfo>& out);
void registerExplicitGatherScatterBatchingPass(std::vector<PassInfo>& out);
void registerGspmdImportPass(std::vector<PassInfo>& out);

const std::vector<PassInfo>& allPasses() {
  static const std::vector<PassInfo> passes = [] {
    std::vector<PassInfo> out;
    registerRulePasses(out);
    registerImportPasses(out);
    registerExplicitGatherScatterBatchingPass(out);
    registerPropagationPasses(out);
    registerExportPasses(out);
    registerPipelinePasses(out);
    registerReshardToCollectivesPass(out);
    registerCanonicalizePass(out);
    registerGspmdImportPass(out);
    return out;
  }();
  return passes;
}

}  // namespace shardscope::passes
