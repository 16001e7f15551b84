#include "core/op_source_text.h"

#include <QStringList>

namespace shardscope::widgets {

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }

QString frameWords(const api::SourceFrame& f) {
  QString text = qs(api::frameText(f));
  if (!f.function.empty()) text += QStringLiteral(" in ") + qs(f.function);
  return text;
}
}  // namespace

QString frameSummary(const api::OpSource& source) {
  const api::SourceFrame* f = source.frame();
  return f ? frameWords(*f) : QString();
}

QString opSourceSummary(const api::OpSource& source) {
  QStringList parts;
  if (const QString frame = frameSummary(source); !frame.isEmpty()) parts << frame;
  QStringList scope;
  for (const std::string& s : source.scopePath) scope << qs(s);
  if (!scope.isEmpty()) parts << scope.join(QStringLiteral(" › "));
  if (!source.primitive.empty()) parts << qs(source.primitive);
  return parts.join(QStringLiteral(" · "));
}

QString argumentSourceSummary(const api::OpSource& source) {
  QStringList parts;
  if (const QString frame = frameSummary(source); !frame.isEmpty()) parts << frame;
  if (!source.nameScope.empty()) parts << qs(source.nameScope);
  return parts.join(QStringLiteral(" · "));
}

QString opSourceToolTip(const api::OpSource& source) {
  if (source.empty()) return {};
  QString html;
  if (!source.nameScope.empty())
    html += QStringLiteral("<b>Name scope</b><br><tt>%1</tt>").arg(qs(source.nameScope).toHtmlEscaped());
  if (!source.stack.empty()) {
    if (!html.isEmpty()) html += QStringLiteral("<br>");
    html += QStringLiteral("<b>Python source</b> (innermost first)");
    for (const api::SourceFrame& f : source.stack)
      html += QStringLiteral("<br><tt>%1</tt>").arg(frameWords(f).toHtmlEscaped());
  }
  return html;
}

}  // namespace shardscope::widgets
