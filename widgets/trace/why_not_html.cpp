#include "why_not_html.h"

#include <QCoreApplication>

#include "core/axis_style.h"

namespace shardscope::widgets::trace {

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

QString whyNotHtml(const api::BlockedAxesReport& report, const Mesh* mesh) {
  if (report.axes.empty()) return {};
  QString html = QCoreApplication::translate("WhyPanel", "<p><b>Why not other axes?</b></p><ul>");
  for (const api::BlockedAxisEntry& e : report.axes) {
    // The sentence starts with its reason ("conflict: ..."): shown as a tag.
    std::string text = e.text;
    const std::string prefix = e.reason + ": ";
    if (text.rfind(prefix, 0) == 0) text = text.substr(prefix.size());
    const std::string name = e.axis.size() > 1 && e.axis.front() == '"'
                                 ? e.axis.substr(1, e.axis.find('"', 1) - 1)
                                 : e.axis;
    html += QStringLiteral("<li><b style=\"color:%1\">%2</b>&nbsp; <i>%3</i>: %4</li>")
                .arg(widgets::axisColor(mesh, qs(name)).name(), qs(e.axis).toHtmlEscaped(),
                     qs(e.reason).toHtmlEscaped(), qs(text).toHtmlEscaped());
  }
  return html + QStringLiteral("</ul>");
}

}  // namespace shardscope::widgets::trace
