// Run by work_pool_test: ends its application while work on workPool() is
// still parsing a module, and writes to the file named by argv[1] whether
// that work finished before main() returned ("before") or after ("after":
// then it ran while the process's static data was being destroyed).
#include <QCoreApplication>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include "api/document.h"
#include "core/work_pool.h"

namespace {
std::atomic<bool> mainReturned{false};
std::atomic<bool> started{false};
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const std::string marker = argv[1];
  {
    QCoreApplication app(argc, argv);
    (void)QtConcurrent::run(shardscope::widgets::workPool(), [marker] {
      started = true;
      // Long enough that main() is past its application's end meanwhile.
      std::this_thread::sleep_for(std::chrono::milliseconds(400));
      const std::string text =
          "func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
          "  %0 = stablehlo.add %arg0, %arg0 : tensor<8xf32>\n"
          "  return %0 : tensor<8xf32>\n}\n";
      bool parsed = true;
      for (int i = 0; i < 50; ++i) parsed &= shardscope::api::parseDocument(text, "probe.mlir")->module != nullptr;
      std::ofstream(marker) << (mainReturned ? "after" : "before") << (parsed ? " parsed" : " failed");
    });
    while (!started) std::this_thread::yield();
  }
  mainReturned = true;
  return 0;
}
