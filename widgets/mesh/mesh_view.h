// The device grid of a mesh and, for the selected tensor, what each device
// holds: shard index, offset, local shape, padding, and which devices hold
// replicated copies of the same shard (hatched, "copy k/n"). Sub-axes and
// custom device_ids are respected (the data comes from
// api::computeShardLayout).
#pragma once
#include <QString>
#include <QWidget>

#include "api/document.h"
#include "core/picture_export.h"

namespace shardscope::widgets {

class DocumentState;

// Everything the mesh picture shows, computed from a value.
struct MeshTensor {
  QString valueName;     // "%arg0"
  QString typeText;      // "tensor<8x16xf32>"
  QString shardingText;  // "#sdy.sharding<@mesh, [{"x"}, {}]>"
  QString meshName;      // "mesh" (or "inline")
  Mesh mesh;
  bool hasSharding = false;
  TensorSharding sharding;
  api::ShardLayout layout;
  QString note;  // explanation shown under the title (e.g. errors)
  bool valid() const { return hasSharding && layout.error.empty(); }
  // Valid and small enough to draw one cell per device.
  bool drawsDevices() const { return valid() && layout.devicesListed(); }
  // The text of device cell `linearIndex` (lines joined by '\n').
  QString cellText(int64_t linearIndex) const;
  // "4x16" or "4x16 (+pad 0x2)".
  QString localShapeText() const;
};

// Describe `value` of `module` for the mesh view. For a manual_computation
// body argument the global operand's shape is used. A mesh of more than
// api::kMaxListedDevices devices is summarised (shards, local shape), not
// drawn device by device.
MeshTensor describeValue(const ir::Module& module, const ir::Value& value);
// The same for a value of `doc`; when the reader or the verifier rejected
// `doc`, nothing is drawn from it (a rejected mesh may have an axis of size 0
// or more devices than can be counted): the note lists the first errors.
MeshTensor describeValue(const api::Document& doc, const ir::Value& value);
// The picture of `t` (header, device grid, legend, tensor sketch). The
// legend and sketch go right of the grid, or below it when that would be
// wider than `maxWidth` (0: no limit). `dark`: colours for a dark canvas
// (theme_palette.h canvasColors; exports are light unless asked otherwise).
Picture meshPicture(const MeshTensor& t, qreal maxWidth = 0, bool dark = false);

class MeshView : public QWidget {
  Q_OBJECT
 public:
  explicit MeshView(DocumentState* state, QWidget* parent = nullptr);
  const MeshTensor& tensor() const { return tensor_; }
  // Light, for export (the view itself follows the theme).
  Picture picture() const { return meshPicture(tensor_); }
  QSize sizeHint() const override { return {640, 480}; }

  // How large the picture is drawn relative to normal (presentation mode:
  // 1.6, as the graph's text). The picture is drawn at this scale, never
  // smaller (its smallest text, 10 px, stays readable): the view scrolls
  // when it does not fit; fonts grow, never shrink.
  //   mesh->setTextScale(1.6);  // 13 px header text is drawn 16-21 px
  void setTextScale(qreal scale);
  qreal textScale() const { return textScale_; }
  // The scale the picture was last drawn at (tests; 0 before a paint).
  qreal shownScale() const { return shownScale_; }

 public slots:
  void showValue(const ir::Value* value);

 protected:
  void paintEvent(QPaintEvent* e) override;
  void resizeEvent(QResizeEvent* e) override;
  void changeEvent(QEvent* e) override;

 private:
  // The smallest scale the picture is drawn at (below it, it scrolls): its
  // smallest text is 10 px, so never under 10 px on screen (0.75 drew the
  // device cells' text at 7.5 px in a 1280x800 window).
  static constexpr double kMinScale = 1.0;
  qreal minScale() const { return kMinScale * textScale_; }
  void updateMinimumSize();
  DocumentState* state_;
  MeshTensor tensor_;
  qreal textScale_ = 1.0;
  qreal shownScale_ = 0;
};

}  // namespace shardscope::widgets
