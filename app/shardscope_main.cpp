// shardscope: the GUI explorer.
//   shardscope [FILE]                  open FILE (default: the matmul_chain sample)
//   shardscope --export OUT.{png,svg,pdf} --view graph|mesh|source|comm|factors|trace
//              [--op NAME] [--value NAME] [--propagate LEVEL] [--step N] FILE
//                                      write the picture and exit, no window
//   shardscope --export OUT.svg --view compare [--compare basic,user-priority] FILE
//                                      Propagation > Compare Strategies' picture
//   shardscope --export OUT.mlir [--propagate LEVEL [--step N]] FILE
//                                      write the module as the GUI holds it
//   LEVEL: pipeline (-sdy-propagation-pipeline), basic, aggressive,
//          op-priority, user-priority (-sdy-LEVEL-propagate)
#include <QApplication>
#include <sys/prctl.h>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QTimer>
#include <cstdio>
#include <fstream>
#include <new>

#include "io/huge_page_heap.h"
#include "api/document.h"
#include "api/propagate.h"
#include "core/axis_style.h"
#include "core/document_state.h"
#include "ir/printer.h"
#include "main_window.h"
#include "core/picture_export.h"
#include "core/timeline_caption.h"
#include "export/view_export.h"
#include "comm/communication_export.h"
#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
#include "trace/strategy_compare_export.h"
#include "trace/trace_export.h"
#endif
#ifdef SHARDSCOPE_HAVE_SC_WORKSPACE
#include "sparsecore_export.h"
#endif

using namespace shardscope;
using namespace shardscope::widgets;

namespace {

int fail(const QString& message) {
  std::fprintf(stderr, "shardscope: %s\n", qPrintable(message));
  return 1;
}

bool hasArg(int argc, char** argv, const char* name) {
  for (int i = 1; i < argc; ++i)
    if (qstrcmp(argv[i], name) == 0 ||
        QByteArray(argv[i]).startsWith(QByteArray(QByteArray(name) + '=')))
      return true;
  return false;
}

// Why `file` cannot be read as an input, or "" when it is a regular file.
QString inputFileProblem(const QString& file) {
  const QFileInfo info(file);
  if (!info.exists()) return QStringLiteral("no such file: %1").arg(file);
  if (info.isDir()) return QStringLiteral("%1 is a directory, not a file").arg(file);
  if (!info.isFile()) return QStringLiteral("%1 is not a regular file").arg(file);
  return {};
}

// Qt aborts when it cannot start a platform plugin. Help, version and
// exports need no display (offscreen); a window does, so without one say so.
// Returns false when the window cannot open.
bool choosePlatform(int argc, char** argv) {
  if (!qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) return true;
  for (const char* noWindow :
       {"--export", "--help", "-h", "-?", "--help-all", "--version", "-v"}) {
    if (hasArg(argc, argv, noWindow)) {
      qputenv("QT_QPA_PLATFORM", "offscreen");
      return true;
    }
  }
  return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

bool parseLevel(const QString& level, propagation::PropagationOptions* opts) {
  const auto l = api::levelFromName(level.toStdString());
  if (l) opts->level = *l;
  return l.has_value();
}

QString unknownLevel(const QString& option, const QString& level) {
  return QStringLiteral("unknown %1 '%2' (use %3)")
      .arg(option, level, QString::fromStdString(api::levelNames()));
}

// --export OUT.mlir: the module as the GUI holds it, printed as
// shardscope-opt prints: as opened, after --propagate LEVEL (for "pipeline"
// byte for byte what `shardscope-opt -sdy-propagation-pipeline` writes), or
// with --step N after that step of the run.
int runModuleExport(const QCommandLineParser& args, const QString& file, const QString& out) {
  if (!QFileInfo(file).isFile()) return fail(QStringLiteral("no such file: %1").arg(file));
  for (const char* opt : {"view", "op", "value", "strategy", "compare"})
    if (args.isSet(QLatin1String(opt)))
      return fail(QStringLiteral("--%1 does not apply to --export %2 (a module, not a picture)")
                      .arg(QLatin1String(opt), out));
  auto doc = api::loadDocument(file.toStdString());
  for (const auto& d : doc->diagnostics) std::fprintf(stderr, "%s\n", d.format(doc->name).c_str());
  if (!doc->module || doc->hasErrors())
    return fail(QStringLiteral("%1 has errors; nothing written").arg(file));
  std::shared_ptr<const api::Document> shown = doc;
  if (args.isSet(QStringLiteral("propagate"))) {
    propagation::PropagationOptions opts;
    if (!parseLevel(args.value(QStringLiteral("propagate")), &opts))
      return fail(
          unknownLevel(QStringLiteral("--propagate"), args.value(QStringLiteral("propagate"))));
    const auto run = api::propagateDocument(*doc, opts);
    for (const auto& d : run->diagnostics)
      std::fprintf(stderr, "%s\n", d.format(doc->name).c_str());
    if (!run->ok || !run->result) return fail(QStringLiteral("propagation failed on %1").arg(file));
    shown = run->result;
    if (args.isSet(QStringLiteral("step"))) {
      bool ok = false;
      const int step = args.value(QStringLiteral("step")).toInt(&ok);
      if (!ok || step < 0 || static_cast<size_t>(step) >= run->trace.steps.size())
        return fail(QStringLiteral("--step needs a step of the run (0..%1), got '%2'")
                        .arg(static_cast<qsizetype>(run->trace.steps.size()) - 1)
                        .arg(args.value(QStringLiteral("step"))));
      std::string error;
      shown = api::documentAtStep(*doc, *run, static_cast<size_t>(step) + 1, &error);
      if (!shown) return fail(QStringLiteral("cannot replay the trace: %1").arg(toQString(error)));
    }
  } else if (args.isSet(QStringLiteral("step"))) {
    return fail(QStringLiteral("--step with --export %1 needs --propagate LEVEL").arg(out));
  }
  std::ofstream stream(out.toStdString(), std::ios::binary);
  if (!stream) return fail(QStringLiteral("cannot write %1").arg(out));
  ir::printModule(*shown->module, stream, ir::PrintOptions{});
  stream.flush();
  if (!stream) return fail(QStringLiteral("cannot write %1").arg(out));
  std::fprintf(stdout, "wrote %s (module)\n", qPrintable(out));
  return 0;
}

int runExport(const QCommandLineParser& args, const QString& out) {
  const QStringList files = args.positionalArguments();
  if (files.size() != 1) return fail(QStringLiteral("--export needs exactly one input FILE"));
  if (pictureFormatForPath(out) == PictureFormat::Unknown &&
      !out.endsWith(QLatin1String(".mlir"), Qt::CaseInsensitive))
    return fail(QStringLiteral("cannot export to '%1': the file name must end in .png, .svg, "
                               ".pdf (a picture) or .mlir (the module)")
                    .arg(out));
  const QString file = files.front();
  if (out.endsWith(QLatin1String(".mlir"), Qt::CaseInsensitive))
    return runModuleExport(args, file, out);
#ifdef SHARDSCOPE_HAVE_SC_WORKSPACE
  // SparseCore views read a job file (JSON), not MLIR.
  if (args.isSet(QStringLiteral("view")) && scw::isSparseCoreView(args.value(QStringLiteral("view")))) {
    if (const QString problem = inputFileProblem(file); !problem.isEmpty()) return fail(problem);
    QString error;
    if (!scw::exportSparseCoreView(file, args.value(QStringLiteral("view")), out, QSize(), &error)) return fail(error);
    std::fprintf(stdout, "wrote %s (%s)\n", qPrintable(out), qPrintable(args.value(QStringLiteral("view"))));
    return 0;
  }
#endif
#ifdef SHARDSCOPE_HAVE_TRACE_WIDGETS
  // --view compare: Propagation > Compare Strategies, with the strategies
  // its choosers start at unless --compare names two.
  const bool compareView = args.value(QStringLiteral("view")) == QLatin1String("compare");
  if (args.isSet(QStringLiteral("compare")) && !compareView)
    return fail(QStringLiteral("--compare applies to --view compare only"));
  if (compareView) {
    for (const char* opt :
         {"op", "value", "step", "strategy", "propagate", "comm-layer", "group-scopes"})
      if (args.isSet(QLatin1String(opt)))
        return fail(QStringLiteral("--%1 does not apply to --view compare (each strategy runs "
                                   "alone on the file as written; --compare names them)")
                        .arg(QLatin1String(opt)));
    const QString pair = args.isSet(QStringLiteral("compare"))
                             ? args.value(QStringLiteral("compare"))
                             : QStringLiteral("basic,user-priority");
    const QStringList names = pair.split(u',');
    widgets::trace::Strategy a{}, b{};
    if (names.size() != 2 || !widgets::trace::parseStrategy(names[0].trimmed(), &a) ||
        !widgets::trace::parseStrategy(names[1].trimmed(), &b))
      return fail(QStringLiteral("--compare takes two strategies A,B (basic, aggressive, "
                                 "op-priority or user-priority), not '%1'")
                      .arg(pair));
    if (const QString problem = inputFileProblem(file); !problem.isEmpty()) return fail(problem);
    // As the GUI compares: the module's text, named as the window names it.
    const auto cdoc = api::loadDocument(file.toStdString());
    QString error;
    const Picture pic = widgets::trace::strategyComparePicture(
        toQString(cdoc->text), toQString(cdoc->name), a, b, &error);
    if (pic.isNull()) return fail(error);
    if (!writePicture(pic, out, &error)) return fail(error);
    std::fprintf(stdout, "wrote %s (compare, %s)\n", qPrintable(out), qPrintable(pic.title));
    return 0;
  }
  // The trace explorer's views (widgets/trace): factor table / trace.
  widgets::trace::TraceExportOptions traceOpts;
  if (args.isSet(QStringLiteral("view")) &&
      widgets::trace::parseTraceExportView(args.value(QStringLiteral("view")), &traceOpts.view)) {
    if (const QString problem = inputFileProblem(file); !problem.isEmpty()) return fail(problem);
    if (args.isSet(QStringLiteral("strategy")) &&
        !widgets::trace::parseStrategy(args.value(QStringLiteral("strategy")), &traceOpts.strategy))
      return fail(
          QStringLiteral(
              "unknown --strategy '%1' (use basic, aggressive, op-priority or user-priority)")
              .arg(args.value(QStringLiteral("strategy"))));
    traceOpts.op = args.value(QStringLiteral("op"));
    if (args.isSet(QStringLiteral("step"))) {
      bool ok = false;
      traceOpts.step = args.value(QStringLiteral("step")).toInt(&ok);
      if (!ok || traceOpts.step < 0)
        return fail(QStringLiteral("--step needs a step number (0, 1, ...), got '%1'")
                        .arg(args.value(QStringLiteral("step"))));
    }
    const auto tdoc = api::loadDocument(file.toStdString());
    QString error;
    if (!widgets::trace::exportTracePanel(out, *tdoc, traceOpts, &error)) return fail(error);
    std::fprintf(stdout, "wrote %s (%s)\n", qPrintable(out),
                 qPrintable(args.value(QStringLiteral("view"))));
    return 0;
  }
  const QString knownViews =
      QStringLiteral("graph, mesh, source, comm, factors, trace, compare, or for a SparseCore job sc-load, "
                     "sc-spmem, sc-hbm, sc-pipeline, sc-ids");
#else
  const QString knownViews = QStringLiteral("graph, mesh, source or comm");
#endif
  ExportView view = ExportView::Graph;
  // --view comm: the collectives this sharding needs (widgets/comm).
  const bool commView = args.value(QStringLiteral("view")) == QLatin1String("comm");
  if (args.isSet(QStringLiteral("view")) && !commView &&
      !parseExportView(args.value(QStringLiteral("view")), &view))
    return fail(QStringLiteral("unknown --view '%1' (use %2)")
                    .arg(args.value(QStringLiteral("view")), knownViews));
  const QString commLayer = args.isSet(QStringLiteral("comm-layer"))
                                ? args.value(QStringLiteral("comm-layer"))
                                : QStringLiteral("on");
  if (commLayer != QLatin1String("on") && commLayer != QLatin1String("off"))
    return fail(QStringLiteral("--comm-layer takes on or off, not '%1'").arg(commLayer));
  if (args.isSet(QStringLiteral("comm-layer")) && (commView || view != ExportView::Graph))
    return fail(QStringLiteral("--comm-layer applies to --view graph only"));
  if (args.isSet(QStringLiteral("group-scopes")) && (commView || view != ExportView::Graph))
    return fail(QStringLiteral("--group-scopes applies to --view graph only"));
  if (const QString problem = inputFileProblem(file); !problem.isEmpty()) return fail(problem);
  auto doc = api::loadDocument(file.toStdString());
  for (const auto& d : doc->diagnostics) std::fprintf(stderr, "%s\n", d.format(doc->name).c_str());

  // --view graph --step N: the module after step N of a propagation run
  // (--propagate or --strategy, default pipeline), the step's axis
  // moves drawn on the edges of its op.
  std::shared_ptr<const api::PropagationRun> stepRun;
  int graphStep = -1;
  // The state the picture shows, for its title (as the GUI's exports say it).
  QString stateCaption = timelineCaption(QString(), 0, 0);
  if (!commView && view == ExportView::Graph && args.isSet(QStringLiteral("step"))) {
    bool ok = false;
    graphStep = args.value(QStringLiteral("step")).toInt(&ok);
    if (!ok || graphStep < 0)
      return fail(QStringLiteral("--step needs a step number (0, 1, ...), got '%1'")
                      .arg(args.value(QStringLiteral("step"))));
    propagation::PropagationOptions opts;
    opts.level = propagation::PropagationLevel::Pipeline;
    const QString level = args.isSet(QStringLiteral("propagate"))
                              ? args.value(QStringLiteral("propagate"))
                              : args.value(QStringLiteral("strategy"));
    if (!level.isEmpty() && !parseLevel(level, &opts))
      return fail(unknownLevel(QStringLiteral("level"), level));
    if (!doc->module || doc->hasErrors())
      return fail(QStringLiteral("cannot propagate %1: it has errors").arg(file));
    stepRun = api::propagateDocument(*doc, opts);
    if (!stepRun->ok) return fail(QStringLiteral("propagation failed on %1").arg(file));
    const size_t n = stepRun->trace.steps.size();
    if (static_cast<size_t>(graphStep) >= n)
      return fail(QStringLiteral("step %1 does not exist (the %2 run has %3 step(s))")
                      .arg(graphStep)
                      .arg(QLatin1String(api::levelName(opts.level)))
                      .arg(n));
    std::string err;
    auto after = api::documentAtStep(*doc, *stepRun, static_cast<size_t>(graphStep) + 1, &err);
    if (!after) return fail(QStringLiteral("cannot replay the trace: %1").arg(toQString(err)));
    doc = after;
    stateCaption = timelineCaption(QLatin1String(api::levelName(opts.level)), graphStep + 1,
                                   static_cast<int>(n));
  } else if (args.isSet(QStringLiteral("propagate"))) {
    const QString level = args.value(QStringLiteral("propagate"));
    propagation::PropagationOptions opts;
    if (!parseLevel(level, &opts)) return fail(unknownLevel(QStringLiteral("--propagate"), level));
    if (!doc->module || doc->hasErrors())
      return fail(QStringLiteral("cannot propagate %1: it has errors").arg(file));
    const auto run = api::propagateDocument(*doc, opts);
    for (const auto& d : run->diagnostics)
      std::fprintf(stderr, "%s\n", d.format(doc->name).c_str());
    if (!run->ok || !run->result) return fail(QStringLiteral("propagation failed on %1").arg(file));
    doc = run->result;
    const int steps = static_cast<int>(run->trace.steps.size());
    stateCaption = timelineCaption(QLatin1String(api::levelName(opts.level)), steps, steps);
    std::fprintf(stderr, "propagated (%s): %zu step(s)\n", api::levelName(opts.level),
                 run->trace.steps.size());
  }

  if (commView) {
    // Its title says the state as the GUI's export does.
    QString error;
    if (!widgets::comm::exportCommunicationView(out, *doc, stateCaption, {}, &error))
      return fail(error);
    std::fprintf(stdout, "wrote %s (comm)\n", qPrintable(out));
    return 0;
  }
  DocumentState state;
  state.setDocument(doc);
  ExportRequest req;
  req.view = view;
  req.state = view == ExportView::Source ? QStringLiteral("as written") : stateCaption;
  req.grouping.scopesAtAnySize = args.isSet(QStringLiteral("group-scopes"));
  if (args.isSet(QStringLiteral("op"))) {
    const QString name = args.value(QStringLiteral("op"));
    req.op = state.findOp(name);
    if (!req.op)
      return fail(QStringLiteral("no op, value or function named '%1' in %2").arg(name, file));
    if (const ir::Op* f = enclosingFunction(req.op)) state.setFunction(f);
  }
  if (args.isSet(QStringLiteral("value"))) {
    const QString name = args.value(QStringLiteral("value"));
    req.value = state.findValue(name);
    if (!req.value) return fail(QStringLiteral("no value named '%1' in %2").arg(name, file));
    if (!req.op) {
      const ir::Op* owner =
          req.value->isBlockArgument() ? req.value->ownerBlock->parentOp() : req.value->definingOp;
      if (view == ExportView::Graph) req.op = enclosingFunction(owner);
    }
  }
  if (stepRun) {
    const auto& step = stepRun->trace.steps[static_cast<size_t>(graphStep)];
    req.step = &step;
    if (!req.op && doc->module) {
      req.op = api::stepOp(*doc->module, step);
      if (const ir::Op* f = enclosingFunction(req.op)) state.setFunction(f);
    }
  }
  // The graph's communication layer: drawn when the shardings need a
  // collective (as the GUI draws it), unless --comm-layer off.
  if (view == ExportView::Graph && commLayer == QLatin1String("on") && doc->module &&
      !doc->hasErrors()) {
    auto report = std::make_shared<const api::CommunicationReport>(api::analyzeCommunication(*doc));
    if (report->ok)
      req.comm = report;
    else
      std::fprintf(stderr, "no communication layer: %s\n", report->error.c_str());
  }
  QString error;
  const Picture pic = exportPicture(*doc, req, &error);
  if (pic.isNull()) return fail(error);
  if (!writePicture(pic, out, &error)) return fail(error);
  std::fprintf(stdout, "wrote %s (%s, %dx%d)\n", qPrintable(out), qPrintable(exportViewName(view)),
               qRound(pic.size.width()), qRound(pic.size.height()));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // The heap on transparent huge pages (io/huge_page_heap.h), before Qt or
  // any file: which module will be opened, and how large, is not known yet
  // (File > Open comes later), and the restart costs a few milliseconds.
  // A million-op module then loads with a fraction of the page faults.
  io::restartWithHugePageHeap(argv);
  // Files are read on a worker thread: its IR goes on the same huge pages.
  io::shareMainHeapWithThreads();
  // Restarted through /proc/self/exe, the process would be listed as "exe"
  // (ps, top, the desktop's task manager).
  prctl(PR_SET_NAME, "shardscope");
  if (!choosePlatform(argc, argv))
    return fail(QStringLiteral(
        "no display (DISPLAY and WAYLAND_DISPLAY are unset): run it under `xvfb-run -a`, or use "
        "--export OUT.png for a picture without a window"));
  QApplication app(argc, argv);
  QCoreApplication::setOrganizationName(QStringLiteral("Shardscope"));
  QCoreApplication::setApplicationName(QStringLiteral("shardscope"));
  QCoreApplication::setApplicationVersion(QStringLiteral(SHARDSCOPE_VERSION));

  QCommandLineParser args;
  args.setApplicationDescription(QStringLiteral("Explore Shardy-style sharding propagation."));
  args.addHelpOption();
  args.addVersionOption();
  args.addPositionalArgument(
      QStringLiteral("FILE"),
      QStringLiteral("MLIR file to open (default: the matmul_chain sample)."));
  args.addOption(
      {QStringLiteral("export"),
       QStringLiteral("Write a picture of --view to OUT (.png, .svg or .pdf), or the module "
                      "(after --propagate LEVEL) to OUT.mlir, and exit."),
       QStringLiteral("OUT")});
  args.addOption(
      {QStringLiteral("view"),
       QStringLiteral(
           "View to export: graph (default), mesh, source; comm (collectives with cost and cause); "
           "factors or trace (trace explorer); compare (two strategies side by side, "
           "as Propagation > Compare Strategies); "
           "sc-load, sc-spmem, sc-hbm, sc-pipeline or sc-ids for a SparseCore job (JSON)."),
       QStringLiteral("VIEW")});
  args.addOption(
      {QStringLiteral("op"),
       QStringLiteral(
           "Function (@main), value (%3) or op name (dot_general) to show or highlight."),
       QStringLiteral("NAME")});
  args.addOption({QStringLiteral("value"),
                  QStringLiteral("Value whose shards the mesh view shows (e.g. %arg0)."),
                  QStringLiteral("NAME")});
  args.addOption(
      {QStringLiteral("propagate"),
       QStringLiteral("Propagate first: pipeline (as shardscope-opt -sdy-propagation-pipeline), "
                      "or one strategy as -sdy-LEVEL-propagate: basic, aggressive, op-priority, "
                      "user-priority."),
       QStringLiteral("LEVEL")});
  args.addOption({QStringLiteral("step"),
                  QStringLiteral("With --view factors|trace|graph: the step to show (0-based); "
                                 "graph: the module after it, its axis moves drawn on the edges."),
                  QStringLiteral("N")});
  args.addOption(
      {QStringLiteral("strategy"),
       QStringLiteral(
           "With --view factors|trace: basic, aggressive, op-priority or user-priority."),
       QStringLiteral("NAME")});
  args.addOption(
      {QStringLiteral("compare"),
       QStringLiteral("With --view compare: the two strategies, A,B (default basic,user-priority, "
                      "as the GUI's Compare Strategies starts)."),
       QStringLiteral("A,B")});
  args.addOption(
      {QStringLiteral("comm-layer"),
       QStringLiteral("With --view graph: on (default) draws the collectives the shardings need "
                      "on the graph (the GUI's View > Communication Layer), off leaves them out."),
       QStringLiteral("on|off")});
  args.addOption(
      {QStringLiteral("group-scopes"),
       QStringLiteral("With --view graph: group the function by its ops' JAX name scopes whatever "
                      "its size (the GUI's View > Group by Name Scope); without it only "
                      "functions over %1 ops are grouped.")
           .arg(GroupingOptions().threshold)});
  args.addOption({QStringLiteral("screenshot"),
                  QStringLiteral("Open the window, grab it to PNG once laid out, exit."),
                  QStringLiteral("PNG")});
  args.addOption({QStringLiteral("tab"),
                  QStringLiteral("With --screenshot: the centre tab (graph or mesh)."),
                  QStringLiteral("TAB")});
  if (!args.parse(QCoreApplication::arguments())) return fail(args.errorText());
  if (args.isSet(QStringLiteral("help"))) args.showHelp(0);
  if (args.isSet(QStringLiteral("version"))) args.showVersion();

  if (args.isSet(QStringLiteral("export"))) {
    // A picture of a huge module may not fit in memory: say so, do not abort.
    try {
      return runExport(args, args.value(QStringLiteral("export")));
    } catch (const std::bad_alloc&) {
      return fail(QStringLiteral("out of memory"));
    }
  }
  for (const char* opt :
       {"view", "op", "value", "step", "strategy", "compare", "comm-layer", "group-scopes"})
    if (args.isSet(QLatin1String(opt)))
      return fail(QStringLiteral("--%1 is only valid with --export").arg(QLatin1String(opt)));
  if (args.positionalArguments().size() > 1) return fail(QStringLiteral("at most one FILE"));

  const QString sampleDir = app::findSampleDir();
  QString file;
  if (!args.positionalArguments().isEmpty()) {
    file = args.positionalArguments().front();
  } else if (!sampleDir.isEmpty()) {
    file = QDir(sampleDir).filePath(QStringLiteral("matmul_chain.mlir"));
  }
  app::MainWindow window(sampleDir);
  if (args.isSet(QStringLiteral("propagate"))) {
    propagation::PropagationOptions opts;
    if (!parseLevel(args.value(QStringLiteral("propagate")), &opts))
      return fail(
          unknownLevel(QStringLiteral("--propagate"), args.value(QStringLiteral("propagate"))));
    window.setAutoPropagate(opts);
  }
  if (args.isSet(QStringLiteral("screenshot")))
    window.screenshotAndQuit(args.value(QStringLiteral("screenshot")),
                             args.value(QStringLiteral("tab")));
  window.show();
  if (!file.isEmpty()) window.openFile(file);
  return app.exec();
}
