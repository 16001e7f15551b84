#include "core/html_picture.h"

#include <QAbstractTextDocumentLayout>
#include <QPainter>
#include <QTextDocument>
#include <memory>

namespace shardscope::widgets {

Picture htmlPicture(const QString& html, double width, double margin) {
  auto doc = std::make_shared<QTextDocument>();
  doc->setDocumentMargin(margin);
  doc->setHtml(html);
  doc->setTextWidth(width);
  Picture pic;
  pic.size = QSizeF(width, doc->size().height());
  pic.paint = [doc](QPainter& p) {
    // Pictures are light whatever the theme: draw the text dark.
    QAbstractTextDocumentLayout::PaintContext ctx;
    ctx.palette.setColor(QPalette::Text, QColor(0x20, 0x20, 0x20));
    doc->documentLayout()->draw(&p, ctx);
  };
  return pic;
}

}  // namespace shardscope::widgets
