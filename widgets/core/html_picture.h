// Rich text as a Picture (picture_export.h): a panel's HTML, such as the
// Why chain of the trace explorer, laid out at a fixed width and drawn by
// QTextDocument, so it exports to PNG, SVG and PDF like the other views.
//
//   Picture p = htmlPicture(QStringLiteral("<b>%3</b> dim 0: {\"x\"} from %arg0"), 560);
//   writePicture(withTitle(p, title), "why.svg", &error);
#pragma once
#include <QString>

#include "core/picture_export.h"

namespace shardscope::widgets {

// `html` laid out `width` units wide (height as needed), dark text on the
// white page of exported pictures, `margin` units of space around it.
Picture htmlPicture(const QString& html, double width, double margin = 8);

}  // namespace shardscope::widgets
