#include "core/picture_export.h"

#include <QBuffer>
#include <QFileInfo>
#include <QFont>
#include <QFontMetricsF>
#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>

#include "core/svg_fonts.h"

namespace shardscope::widgets {

PictureFormat pictureFormatForPath(const QString& path) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == QLatin1String("png")) return PictureFormat::Png;
  if (suffix == QLatin1String("svg")) return PictureFormat::Svg;
  if (suffix == QLatin1String("pdf")) return PictureFormat::Pdf;
  return PictureFormat::Unknown;
}

Picture withTitle(const Picture& content, const QString& title, const QString& subtitle) {
  QFont tf;
  tf.setPixelSize(18);
  tf.setBold(true);
  QFont sf;
  sf.setPixelSize(12);
  const qreal pad = 14;
  const qreal titleH =
      QFontMetricsF(tf).height() + (subtitle.isEmpty() ? 0 : QFontMetricsF(sf).height() + 2);
  const qreal w =
      std::max(content.size.width(), QFontMetricsF(tf).horizontalAdvance(title)) + 2 * pad;
  const qreal h = content.size.height() + titleH + 3 * pad;
  Picture out;
  out.size = QSizeF(w, h);
  out.title = title;
  out.paint = [content, title, subtitle, tf, sf, pad, titleH, w](QPainter& p) {
    p.save();
    p.setPen(QColor(0x20, 0x20, 0x20));
    p.setFont(tf);
    const qreal th = QFontMetricsF(tf).height();
    p.drawText(QRectF(pad, pad, w - 2 * pad, th), Qt::AlignLeft | Qt::AlignVCenter, title);
    if (!subtitle.isEmpty()) {
      p.setFont(sf);
      p.setPen(QColor(0x60, 0x60, 0x60));
      p.drawText(QRectF(pad, pad + th + 2, w - 2 * pad, QFontMetricsF(sf).height()),
                 Qt::AlignLeft | Qt::AlignVCenter, subtitle);
    }
    p.setPen(QPen(QColor(0xdd, 0xdd, 0xdd), 1));
    p.drawLine(QPointF(pad, pad + titleH + pad / 2), QPointF(w - pad, pad + titleH + pad / 2));
    p.translate(pad, titleH + 2 * pad);
    if (content.paint) content.paint(p);
    p.restore();
  };
  return out;
}

bool writePicture(const Picture& picture, const QString& path, QString* error, double scale) {
  auto fail = [&](const QString& msg) {
    if (error) *error = msg;
    return false;
  };
  if (picture.isNull()) return fail(QStringLiteral("nothing to export"));
  const PictureFormat format = pictureFormatForPath(path);
  if (format == PictureFormat::Unknown)
    return fail(QStringLiteral("unsupported file type '%1' (use .png, .svg or .pdf)")
                    .arg(QFileInfo(path).suffix()));
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly))
    return fail(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
  const QSizeF size = picture.size;
  switch (format) {
    case PictureFormat::Png: {
      const QSize px((size * scale).toSize());
      if (px.width() > 32000 || px.height() > 32000 ||
          qint64(px.width()) * px.height() > 400'000'000LL)
        return fail(QStringLiteral("picture too large for PNG (%1x%2 px); use SVG or PDF")
                        .arg(px.width())
                        .arg(px.height()));
      QImage img(px, QImage::Format_ARGB32_Premultiplied);
      img.fill(Qt::white);
      {
        QPainter p(&img);
        p.setRenderHint(QPainter::Antialiasing);
        p.setRenderHint(QPainter::TextAntialiasing);
        p.scale(scale, scale);
        picture.paint(p);
      }
      if (!img.save(&file, "PNG")) return fail(QStringLiteral("PNG encoding failed"));
      break;
    }
    case PictureFormat::Svg: {
      QBuffer svg;
      svg.open(QIODevice::WriteOnly);
      QSvgGenerator gen;
      gen.setOutputDevice(&svg);
      gen.setSize(size.toSize());
      gen.setViewBox(QRectF(QPointF(0, 0), size));
      gen.setTitle(QFileInfo(path).completeBaseName());
      gen.setDescription(QStringLiteral("Exported by Shardscope"));
      QPainter p;
      if (!p.begin(&gen)) return fail(QStringLiteral("SVG generator failed"));
      p.setRenderHint(QPainter::Antialiasing);
      p.fillRect(QRectF(QPointF(0, 0), size), Qt::white);
      picture.paint(p);
      p.end();
      const QByteArray bytes = addGenericFontFamilies(svg.data());
      if (file.write(bytes) != bytes.size())
        return fail(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
      break;
    }
    case PictureFormat::Pdf: {
      QPdfWriter pdf(&file);
      pdf.setCreator(QStringLiteral("Shardscope"));
      pdf.setTitle(QFileInfo(path).completeBaseName());
      pdf.setResolution(96);
      // One page exactly the picture's size (96 units per inch).
      const QSizeF points = size * 72.0 / 96.0;
      pdf.setPageLayout(
          QPageLayout(QPageSize(points, QPageSize::Point, QString(), QPageSize::ExactMatch),
                      QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
      QPainter p;
      if (!p.begin(&pdf)) return fail(QStringLiteral("PDF writer failed"));
      p.setRenderHint(QPainter::Antialiasing);
      // Map the picture to the page's paint rect.
      const QRect page = pdf.pageLayout().paintRectPixels(pdf.resolution());
      const qreal s = std::min(page.width() / size.width(), page.height() / size.height());
      p.scale(s, s);
      picture.paint(p);
      p.end();
      break;
    }
    case PictureFormat::Unknown:
      break;
  }
  if (!file.commit())
    return fail(QStringLiteral("cannot save %1: %2").arg(path, file.errorString()));
  return true;
}

}  // namespace shardscope::widgets
