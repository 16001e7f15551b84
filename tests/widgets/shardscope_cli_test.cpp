// The shardscope executable: headless export, clear errors on bad
// arguments, and the main window opening every sample (offscreen).
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "test_util.h"

namespace {
struct Run {
  int code = -1;
  QString out, err;
};
// Runs `program` (shardscope) offscreen, or with no display at all when
// `display` is false.
Run run(const QStringList& args, bool display = true,
        const QString& program = QStringLiteral(SHARDSCOPE_BIN)) {
  QProcess p;
  p.setProgram(program);
  p.setArguments(args);
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  if (display) {
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
  } else {
    for (const char* var : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
      env.remove(QLatin1String(var));
  }
  env.insert(QStringLiteral("XDG_CONFIG_HOME"),
             QDir::tempPath() + QStringLiteral("/shardscope-test-config"));
  p.setProcessEnvironment(env);
  p.start();
  Run r;
  if (!p.waitForFinished(120000)) {
    p.kill();
    return r;
  }
  r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
  r.out = QString::fromLocal8Bit(p.readAllStandardOutput());
  r.err = QString::fromLocal8Bit(p.readAllStandardError());
  return r;
}
Run runWithoutDisplay(const QStringList& args) { return run(args, false); }
QString sample(const char* name) {
  return QDir(shardscope::test::sampleDir()).filePath(QLatin1String(name));
}
}  // namespace

class ShardscopeCliTest : public QObject {
  Q_OBJECT
 private slots:
  void exportOk_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("out");
    QTest::newRow("graph png") << QStringList{QStringLiteral("--view"), QStringLiteral("graph"),
                                              sample("matmul_chain.mlir")}
                               << "g.png";
    QTest::newRow("mesh svg value")
        << QStringList{QStringLiteral("--view"), QStringLiteral("mesh"), QStringLiteral("--value"),
                       QStringLiteral("%arg1"), sample("mlp_megatron.mlir")}
        << "m.svg";
    QTest::newRow("source pdf op")
        << QStringList{QStringLiteral("--view"), QStringLiteral("source"), QStringLiteral("--op"),
                       QStringLiteral("stablehlo.while"), sample("while_loop.mlir")}
        << "s.pdf";
    QTest::newRow("propagated graph svg")
        << QStringList{QStringLiteral("--propagate"), QStringLiteral("user-priority"),
                       sample("priorities.mlir")}
        << "p.svg";
    QTest::newRow("propagated mesh of %0")
        << QStringList{QStringLiteral("--propagate"), QStringLiteral("basic"),
                       QStringLiteral("--view"),      QStringLiteral("mesh"),
                       QStringLiteral("--value"),     QStringLiteral("%0"),
                       sample("matmul_chain.mlir")}
        << "pm.png";
    QTest::newRow("comm png propagated")
        << QStringList{QStringLiteral("--view"), QStringLiteral("comm"), QStringLiteral("--propagate"),
                       QStringLiteral("user-priority"), sample("mlp_megatron.mlir")}
        << "c.png";
    QTest::newRow("comm svg as written")
        << QStringList{QStringLiteral("--view"), QStringLiteral("comm"), sample("attention_block.mlir")}
        << "c.svg";
    QTest::newRow("graph op function")
        << QStringList{QStringLiteral("--op"), QStringLiteral("@explicit"),
                       sample("reshape_subaxes.mlir")}
        << "f.png";
  }
  void exportOk() {
    QFETCH(QStringList, args);
    QFETCH(QString, out);
    const QString path = dir_.filePath(out);
    const Run r = run(QStringList{QStringLiteral("--export"), path} + args);
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(QFileInfo(path).size() > 1000);
    QVERIFY(r.out.startsWith(QLatin1String("wrote ")));
  }

  // `--export OUT.mlir`: the module the GUI holds after a level is byte for
  // byte what shardscope-opt prints after that level's pass, on every
  // sample; the pipeline with the GUI's default (no --propagate: as opened).
  void exportModuleMatchesOpt_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("level");
    QTest::addColumn<QString>("pass");
    for (const QString& p : shardscope::test::samplePaths()) {
      const QString name = QFileInfo(p).completeBaseName();
      for (const char* level :
           {"pipeline", "basic", "aggressive", "op-priority", "user-priority"}) {
        const QString l = QLatin1String(level);
        QTest::newRow(qPrintable(name + u' ' + l))
            << p << l
            << (l == QLatin1String("pipeline") ? QStringLiteral("-sdy-propagation-pipeline")
                                               : QStringLiteral("-sdy-%1-propagate").arg(l));
      }
      QTest::newRow(qPrintable(name + QStringLiteral(" as opened"))) << p << QString() << QString();
    }
  }
  void exportModuleMatchesOpt() {
    QFETCH(QString, path);
    QFETCH(QString, level);
    QFETCH(QString, pass);
    const QString out = dir_.filePath(QFileInfo(path).completeBaseName() + u'_' +
                                      (level.isEmpty() ? QStringLiteral("opened") : level) +
                                      QStringLiteral(".mlir"));
    QStringList args{QStringLiteral("--export"), out, path};
    if (!level.isEmpty()) args = QStringList{QStringLiteral("--propagate"), level} + args;
    const Run gui = run(args);
    QVERIFY2(gui.code == 0, qPrintable(gui.err));
    QCOMPARE(gui.out.trimmed(), QStringLiteral("wrote %1 (module)").arg(out));
    QStringList optArgs{path};
    if (!pass.isEmpty()) optArgs.prepend(pass);
    const Run opt = run(optArgs, true, QStringLiteral(SHARDSCOPE_OPT_BIN));
    QVERIFY2(opt.code == 0, qPrintable(opt.err));
    QFile written(out);
    QVERIFY(written.open(QIODevice::ReadOnly));
    const QByteArray bytes = written.readAll();
    QVERIFY(bytes.size() > 100);
    QCOMPARE(QString::fromUtf8(bytes), opt.out);  // shows the difference when there is one
    QCOMPARE(bytes, opt.out.toUtf8());
  }

  void badArguments_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    const QString out = dir_.filePath(QStringLiteral("x.png"));
    QTest::newRow("bad view") << QStringList{QStringLiteral("--export"), out,
                                             QStringLiteral("--view"), QStringLiteral("pie"),
                                             sample("matmul_chain.mlir")}
                              << "unknown --view 'pie'";
    QTest::newRow("bad suffix") << QStringList{QStringLiteral("--export"),
                                               dir_.filePath(QStringLiteral("x.gif")),
                                               sample("matmul_chain.mlir")}
                                << "must end in .png, .svg, .pdf (a picture) or .mlir (the module)";
    QTest::newRow("missing file") << QStringList{QStringLiteral("--export"), out,
                                                 QStringLiteral("/no/such.mlir")}
                                  << "no such file";
    // Issue 12, item 10: a directory is not "no such file".
    QTest::newRow("directory") << QStringList{QStringLiteral("--export"), out, dir_.path()}
                               << QString(dir_.path() + QStringLiteral(" is a directory, not a file"));
    QTest::newRow("no file") << QStringList{QStringLiteral("--export"), out}
                             << "exactly one input FILE";
    QTest::newRow("unknown op") << QStringList{QStringLiteral("--export"), out,
                                               QStringLiteral("--op"), QStringLiteral("frobnicate"),
                                               sample("matmul_chain.mlir")}
                                << "no op, value or function named 'frobnicate'";
    QTest::newRow("unknown value")
        << QStringList{QStringLiteral("--export"), out,
                       QStringLiteral("--view"),   QStringLiteral("mesh"),
                       QStringLiteral("--value"),  QStringLiteral("%42"),
                       sample("matmul_chain.mlir")}
        << "no value named '%42'";
    QTest::newRow("bad level") << QStringList{QStringLiteral("--export"), out,
                                              QStringLiteral("--propagate"),
                                              QStringLiteral("eager"), sample("matmul_chain.mlir")}
                               << "unknown --propagate 'eager'";
    QTest::newRow("graph step not a number")
        << QStringList{QStringLiteral("--export"), out, QStringLiteral("--view"), QStringLiteral("graph"),
                       QStringLiteral("--step"), QStringLiteral("three"), sample("matmul_chain.mlir")}
        << "--step needs a step number (0, 1, ...), got 'three'";
    QTest::newRow("graph step out of range")
        << QStringList{QStringLiteral("--export"), out, QStringLiteral("--view"), QStringLiteral("graph"),
                       QStringLiteral("--step"), QStringLiteral("999"), sample("matmul_chain.mlir")}
        << "step 999 does not exist";
    const QString mlir = dir_.filePath(QStringLiteral("x.mlir"));
    QTest::newRow("module: bad level")
        << QStringList{QStringLiteral("--export"), mlir, QStringLiteral("--propagate"),
                       QStringLiteral("eager"), sample("matmul_chain.mlir")}
        << "unknown --propagate 'eager' (use pipeline, basic, aggressive, op-priority or "
           "user-priority)";
    QTest::newRow("module: step out of range")
        << QStringList{QStringLiteral("--export"),    mlir,
                       QStringLiteral("--propagate"), QStringLiteral("pipeline"),
                       QStringLiteral("--step"),      QStringLiteral("999"),
                       sample("matmul_chain.mlir")}
        << "--step needs a step of the run";
    QTest::newRow("module: step without level")
        << QStringList{QStringLiteral("--export"), mlir, QStringLiteral("--step"),
                       QStringLiteral("1"), sample("matmul_chain.mlir")}
        << "needs --propagate LEVEL";
    QTest::newRow("module: a view")
        << QStringList{QStringLiteral("--export"), mlir, QStringLiteral("--view"),
                       QStringLiteral("mesh"), sample("matmul_chain.mlir")}
        << "--view does not apply to --export";
    QTest::newRow("module: missing file")
        << QStringList{QStringLiteral("--export"), mlir, QStringLiteral("/no/such.mlir")}
        << "no such file";
    QTest::newRow("comm layer: bad value")
        << QStringList{QStringLiteral("--export"), out, QStringLiteral("--comm-layer"),
                       QStringLiteral("maybe"), sample("matmul_chain.mlir")}
        << "--comm-layer takes on or off, not 'maybe'";
    QTest::newRow("comm layer: not a graph")
        << QStringList{QStringLiteral("--export"), out, QStringLiteral("--view"),
                       QStringLiteral("mesh"), QStringLiteral("--comm-layer"), QStringLiteral("off"),
                       sample("matmul_chain.mlir")}
        << "--comm-layer applies to --view graph only";
    QTest::newRow("group scopes: not a graph")
        << QStringList{QStringLiteral("--export"), out, QStringLiteral("--view"),
                       QStringLiteral("mesh"), QStringLiteral("--group-scopes"),
                       sample("matmul_chain.mlir")}
        << "--group-scopes applies to --view graph only";
    QTest::newRow("compare: one strategy")
        << QStringList{QStringLiteral("--export"), out, QStringLiteral("--view"), QStringLiteral("compare"),
                       QStringLiteral("--compare"), QStringLiteral("basic"), sample("matmul_chain.mlir")}
        << "--compare takes two strategies A,B (basic, aggressive, op-priority or user-priority), not 'basic'";
    QTest::newRow("compare: unknown strategy")
        << QStringList{QStringLiteral("--export"), out, QStringLiteral("--view"), QStringLiteral("compare"),
                       QStringLiteral("--compare"), QStringLiteral("basic,eager"), sample("matmul_chain.mlir")}
        << "not 'basic,eager'";
    QTest::newRow("compare: not the compare view")
        << QStringList{QStringLiteral("--export"), out, QStringLiteral("--compare"),
                       QStringLiteral("basic,aggressive"), sample("matmul_chain.mlir")}
        << "--compare applies to --view compare only";
    QTest::newRow("compare: a level")
        << QStringList{QStringLiteral("--export"), out, QStringLiteral("--view"), QStringLiteral("compare"),
                       QStringLiteral("--propagate"), QStringLiteral("basic"), sample("matmul_chain.mlir")}
        << "--propagate does not apply to --view compare";
    QTest::newRow("compare: missing file")
        << QStringList{QStringLiteral("--export"), out, QStringLiteral("--view"), QStringLiteral("compare"),
                       QStringLiteral("/no/such.mlir")}
        << "no such file";
    QTest::newRow("view without export")
        << QStringList{QStringLiteral("--view"), QStringLiteral("mesh"),
                       sample("matmul_chain.mlir")}
        << "only valid with --export";
  }
  // --view compare: the strategies compared (the GUI's defaults, or
  // --compare A,B) in the title, the values that differ and the change in
  // collectives; a module with errors says why, not a picture.
  void compareViewExport_data() {
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<QString>("title");
    QTest::newRow("defaults") << QStringList{} << "mlp_megatron.mlir — strategies compared: basic → user-priority";
    QTest::newRow("named") << QStringList{QStringLiteral("--compare"), QStringLiteral("aggressive,op-priority")}
                           << "mlp_megatron.mlir — strategies compared: aggressive → op-priority";
  }
  void compareViewExport() {
    QFETCH(QStringList, extra);
    QFETCH(QString, title);
    const QString path = dir_.filePath(QStringLiteral("compare.svg"));
    const Run r = run(QStringList{QStringLiteral("--export"), path, QStringLiteral("--view"),
                                  QStringLiteral("compare")} +
                      extra + QStringList{sample("mlp_megatron.mlir")});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QFile svg(path);
    QVERIFY(svg.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(svg.readAll());
    QVERIFY2(text.contains(title.toHtmlEscaped()), qPrintable(title));
    QVERIFY(text.contains(QLatin1String("each strategy alone on the applied source")));
    const QString broken = dir_.filePath(QStringLiteral("broken.mlir"));
    QFile f(broken);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("func.func @main(\n");
    f.close();
    const Run b = run({QStringLiteral("--export"), dir_.filePath(QStringLiteral("b.png")),
                       QStringLiteral("--view"), QStringLiteral("compare"), broken});
    QCOMPARE(b.code, 1);
    QVERIFY2(b.err.contains(QLatin1String("The comparison has no result")), qPrintable(b.err));
    QVERIFY(!QFileInfo::exists(dir_.filePath(QStringLiteral("b.png"))));
  }

  // --view comm draws the collectives with the totals and the state in the
  // title; a module with errors gets a message, not a picture.
  void commViewExport() {
    const QString path = dir_.filePath(QStringLiteral("comm.svg"));
    Run r = run({QStringLiteral("--export"), path, QStringLiteral("--view"), QStringLiteral("comm"),
                 QStringLiteral("--propagate"), QStringLiteral("user-priority"), sample("mlp_megatron.mlir")});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QFile svg(path);
    QVERIFY(svg.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(svg.readAll());
    for (const char* word : {"mlp_megatron.mlir (after propagation (user-priority, ", "1 collective, 3.00 KiB per device",
                             "all-reduce", "sdy.all_reduce of %4 (planned)", "model"})
      QVERIFY2(text.contains(QLatin1String(word)), word);
    // The whole cause, wrapped, not cut after its first 560 pixels.
    for (const char* word : {"partial", "summed"})
      QVERIFY2(text.contains(QLatin1String(word)), word);
    const QString broken = dir_.filePath(QStringLiteral("broken.mlir"));
    QFile f(broken);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("func.func @main(\n");
    f.close();
    r = run({QStringLiteral("--export"), dir_.filePath(QStringLiteral("b.png")), QStringLiteral("--view"),
             QStringLiteral("comm"), broken});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(QLatin1String("no communication report for broken.mlir")), qPrintable(r.err));
  }

  // --view graph draws the communication layer unless --comm-layer off.
  void graphExportCommunicationLayer() {
    const QString on = dir_.filePath(QStringLiteral("graph_on.svg"));
    const QString off = dir_.filePath(QStringLiteral("graph_off.svg"));
    Run r = run({QStringLiteral("--export"), on, QStringLiteral("--propagate"), QStringLiteral("pipeline"),
                 sample("mlp_megatron.mlir")});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    r = run({QStringLiteral("--export"), off, QStringLiteral("--propagate"), QStringLiteral("pipeline"),
             QStringLiteral("--comm-layer"), QStringLiteral("off"), sample("mlp_megatron.mlir")});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QFile a(on), b(off);
    QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
    const QString withLayer = QString::fromUtf8(a.readAll()), without = QString::fromUtf8(b.readAll());
    for (const char* word : {"Communication on tpu-v5p", "3.00 KiB"}) {
      QVERIFY2(withLayer.contains(QLatin1String(word)), word);
      QVERIFY2(!without.contains(QLatin1String(word)), word);
    }
  }

  void badArguments() {
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const Run r = run(args);
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
  }

  void badFile() {
    const QString bad = dir_.filePath(QStringLiteral("bad.mlir"));
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(shardscope::test::kBadInputs[1].text);
    f.close();
    const Run src = run({QStringLiteral("--export"), dir_.filePath(QStringLiteral("bad.png")),
                         QStringLiteral("--view"), QStringLiteral("source"), bad});
    QVERIFY2(src.code == 0, qPrintable(src.err));
    QVERIFY(src.err.contains(QLatin1String("bad.mlir:3:")));
    // The window opens it too (diagnostics + underlined source).
    const QString shot = dir_.filePath(QStringLiteral("bad_window.png"));
    const Run win = run({QStringLiteral("--screenshot"), shot, bad});
    QVERIFY2(win.code == 0, qPrintable(win.err));
    QVERIFY(!QImage(shot).isNull());
  }

  // Hostile meshes exported as a mesh view: no crash, no hang, no huge
  // picture (issue 12, item 3).
  void hostileMeshExport_data() {
    QTest::addColumn<QString>("mesh");
    QTest::addColumn<QString>("sharding");
    QTest::newRow("axis of size 0") << QStringLiteral("[\"x\"=0]") << QStringLiteral("\"x\"");
    QTest::newRow("2^40 devices") << QStringLiteral("[\"x\"=1099511627776]")
                                  << QStringLiteral("\"x\"");
    QTest::newRow("2^40 x 2^40 devices")
        << QStringLiteral("[\"x\"=1099511627776, \"y\"=1099511627776]")
        << QStringLiteral("\"x\"");
    QTest::newRow("huge sub-axis")
        << QStringLiteral("[\"x\"=4]")
        << QStringLiteral("\"x\":(9223372036854775807)9223372036854775807");
  }
  void hostileMeshExport() {
    QFETCH(QString, mesh);
    QFETCH(QString, sharding);
    const QString file = dir_.filePath(QStringLiteral("hostile.mlir"));
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(QStringLiteral("sdy.mesh @mesh = <%1>\n"
                           "func.func @main(%arg0: tensor<8xf32> {sdy.sharding = "
                           "#sdy.sharding<@mesh, [{%2}]>}) -> tensor<8xf32> {\n"
                           "  return %arg0 : tensor<8xf32>\n}\n")
                .arg(mesh, sharding)
                .toUtf8());
    f.close();
    const QString out = dir_.filePath(QStringLiteral("hostile.png"));
    QFile::remove(out);
    const Run r = run({QStringLiteral("--export"), out, QStringLiteral("--view"),
                       QStringLiteral("mesh"), file});
    QVERIFY2(r.code == 0 || r.code == 1, qPrintable(r.err));
    if (r.code == 0) {
      const QImage img(out);
      QVERIFY(!img.isNull());
      QVERIFY(img.width() < 4000 && img.height() < 2000);
    } else {
      QVERIFY2(r.err.contains(QLatin1String("error")), qPrintable(r.err));
    }
  }

  // Help and version print without a display (no platform plugin needed).
  void helpWithoutDisplay_data() {
    QTest::addColumn<QString>("arg");
    QTest::addColumn<QString>("expect");
    QTest::newRow("--help") << QStringLiteral("--help") << QStringLiteral("Usage:");
    QTest::newRow("-h") << QStringLiteral("-h") << QStringLiteral("--export");
    QTest::newRow("--version") << QStringLiteral("--version") << QStringLiteral("shardscope");
  }
  void helpWithoutDisplay() {
    QFETCH(QString, arg);
    QFETCH(QString, expect);
    const Run r = runWithoutDisplay({arg});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains(expect), qPrintable(r.out));
  }

  // Without a display the window cannot open: a message, exit 1, no abort.
  void windowWithoutDisplay() {
    const Run r = runWithoutDisplay({sample("matmul_chain.mlir")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(QLatin1String("no display")), qPrintable(r.err));
  }

  void windowOpensEverySample_data() { shardscope::test::addSampleRows(); }
  void windowOpensEverySample() {
    QFETCH(QString, path);
    const QString shot =
        dir_.filePath(QFileInfo(path).completeBaseName() + QStringLiteral("_window.png"));
    const Run r = run({QStringLiteral("--screenshot"), shot, path});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QImage img(shot);
    QVERIFY(!img.isNull());
    QVERIFY(img.width() >= 800);
  }

  void windowPropagates() {
    const QString shot = dir_.filePath(QStringLiteral("propagated_window.png"));
    const Run r = run({QStringLiteral("--propagate"), QStringLiteral("user-priority"),
                       QStringLiteral("--screenshot"), shot, sample("mlp_megatron.mlir")});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(!QImage(shot).isNull());
  }

  void defaultSample() {
    const QString shot = dir_.filePath(QStringLiteral("default.png"));
    const Run r = run({QStringLiteral("--screenshot"), shot});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(!QImage(shot).isNull());
  }

 private:
  QTemporaryDir dir_;
};

QTEST_MAIN(ShardscopeCliTest)
#include "shardscope_cli_test.moc"
