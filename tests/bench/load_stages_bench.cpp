// Where the time of opening a module goes, stage by stage, and whether the
// thread that opens it matters: the GUI opens on a worker thread
// (QtConcurrent), the command line on its main thread.
//
//   load_stages_bench FILE [--thread] [--whole] [--shared-heap]
//
// Without --whole, runs the stages of api::loadDocument one after another
// (read the file, look for binary content, parse with attribute sites,
// verify, GSPMD check) and prints the wall and thread CPU time of each; with
// --whole, times api::loadDocument itself. --thread does the same on a
// std::thread (a malloc arena of its own, as the GUI's loader had), unless
// --shared-heap (io::shareMainHeapWithThreads, as the GUI now does). Then
// the time to free the document. Prints figures; asserts nothing.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>
#include <thread>

#include "api/document.h"
#include "io/binary_content.h"
#include "io/huge_page_heap.h"
#include "io/input_file.h"
#include "ir/parser.h"
#include "verifier/verifier.h"

using namespace shardscope;

namespace {

double threadCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// Prints the wall and thread CPU time since the last call under `name`.
struct Stopwatch {
  std::chrono::steady_clock::time_point wall = std::chrono::steady_clock::now();
  double cpu = threadCpuMs();
  void mark(const char* name) {
    const auto now = std::chrono::steady_clock::now();
    const double c = threadCpuMs();
    std::printf("  %-28s %7.0f ms wall, %7.0f ms thread CPU\n", name,
                std::chrono::duration<double, std::milli>(now - wall).count(), c - cpu);
    wall = now;
    cpu = c;
  }
};

void stages(const std::string& path) {
  Stopwatch w;
  std::string text, error;
  if (!io::readInputFile(path, io::kDefaultMaxInputBytes, text, error)) {
    std::printf("  %s\n", error.c_str());
    return;
  }
  w.mark("read file");
  if (io::binaryContentProblem(text)) std::printf("  binary\n");
  w.mark("binary content check");
  ir::DiagnosticSink sink;
  ir::ParseOptions opts;
  opts.fileName = path;
  ir::AttributeSites sites;
  opts.attributeSites = &sites;
  auto module = ir::parseModule(text, opts, sink);
  w.mark("parse (attribute sites)");
  if (module) verifyModule(*module, sink, &sites, SitePlacement::Error);
  w.mark("verify");
  std::printf("  %zu diagnostics\n", sink.all().size());
  module.reset();
  w.mark("free module");
}

void whole(const std::string& path) {
  Stopwatch w;
  auto doc = api::loadDocument(path);
  w.mark("api::loadDocument");
  std::printf("  %zu diagnostics, %s\n", doc->diagnostics.size(), doc->module ? "module" : "none");
  doc.reset();
  w.mark("free document");
}

}  // namespace

int main(int argc, char** argv) {
  io::restartWithHugePageHeap(argv);
  bool shared = false;
  for (int i = 2; i < argc; ++i)
    if (!std::strcmp(argv[i], "--shared-heap")) shared = true;
  if (shared) io::shareMainHeapWithThreads();
  if (argc < 2) {
    std::fprintf(stderr, "usage: load_stages_bench FILE [--thread] [--whole]\n");
    return 2;
  }
  const std::string path = argv[1];
  bool onThread = false, all = false;
  for (int i = 2; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--thread")) onThread = true;
    if (!std::strcmp(argv[i], "--whole")) all = true;
  }
  std::printf("%s, %s%s:\n", all ? "api::loadDocument" : "stages", onThread ? "worker thread" : "main thread",
              shared ? ", one heap for all threads" : "");
  auto run = [&] { all ? whole(path) : stages(path); };
  if (onThread) {
    std::thread t(run);
    t.join();
  } else {
    run();
  }
  return 0;
}
