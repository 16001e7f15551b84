// The communication layer of the dataflow graph: each collective of a
// communication report (api/communication.h) drawn where it happens, as a
// glyph (comm_glyphs.h: the kind's icon and tag, the bytes per device) on
// the edge from the value it moves to the op that reads it, and a stroke
// under that edge whose width and colour grow with its estimated time. A
// collective with no such edge in the picture sits on its op's node; the
// collectives inside a collapsed group of a large function are summed up in
// one glyph on the group ("x3 · 48.0 MiB").
//
// The graph is laid out once: the layer never moves a node. It is overlay
// items in the scene (strokes under the edges, glyphs above the nodes),
// removed and placed again when the report or the layout changes.
//
// Example: sample_models/mlp_megatron.mlir after propagation has one
// all-reduce on "model" of the second dot_general's result; it is drawn as
// "AR 3.00 KiB" on the edge from that dot's value chip to the return.
#pragma once
#include <QObject>
#include <QPointer>
#include <QRectF>
#include <QString>
#include <functional>
#include <memory>
#include <vector>

#include "api/communication.h"
#include "comm/comm_glyphs.h"
#include "core/picture_export.h"

class QAction;
class QGraphicsObject;

namespace shardscope::widgets {

class DocumentState;
class GraphScene;
class GraphView;

// The glyph items' data(0) (the scene's own items use 1-3 there).
inline constexpr int kCommGlyphItemKind = 10;

// Where one glyph goes, in scene coordinates.
struct CommGlyph {
  std::vector<int> entries;  // indices into report.collectives (a group's summary: several)
  QString kind;              // the kind drawn (a summary: its most expensive entry's)
  QString text;              // "192 B"; a summary "x3 · 48.0 MiB"
  double share = 0;          // estimated time / the report's largest, 0..1
  int edge = -1;             // the edge it sits on (scene model's edges), or -1
  int node = -1;             // else the node it sits on
  QRectF rect;               // the pill
};

// Places a glyph for every collective of `report` in the graph `scene`
// shows; `module` is the module of that graph (sites are resolved in it).
// Glyphs that would overlap are stacked below one another.
std::vector<CommGlyph> placeCommGlyphs(const GraphScene& scene, const ir::Module& module,
                                       const api::CommunicationReport& report);

// The layer's items in one scene. Deleting it removes them (if the scene
// still has them: a new layout clears the scene).
class CommLayerDrawing {
 public:
  CommLayerDrawing(GraphScene* scene, std::vector<CommGlyph> glyphs,
                   std::shared_ptr<const api::CommunicationReport> report);
  ~CommLayerDrawing();
  CommLayerDrawing(const CommLayerDrawing&) = delete;
  CommLayerDrawing& operator=(const CommLayerDrawing&) = delete;

  const std::vector<CommGlyph>& glyphs() const { return glyphs_; }
  // The glyph showing report entry `entry`, or -1.
  int glyphOfEntry(int entry) const;
  // Draw glyph `glyph` (-1: none) as selected.
  void setSelectedGlyph(int glyph);
  int selectedGlyph() const { return selected_; }
  // Called with the glyph's first entry when a glyph is clicked.
  void setClickHandler(std::function<void(int entry)> handler);
  // The legend for what is drawn (the kinds present, the cost scale).
  CommLegend legend(bool dark) const;
  // The scene rectangle the items cover.
  QRectF bounds() const;

 private:
  QPointer<GraphScene> scene_;
  std::vector<CommGlyph> glyphs_;
  std::shared_ptr<const api::CommunicationReport> report_;
  QPointer<QGraphicsObject> strokes_;
  std::vector<QPointer<QGraphicsObject>> items_;
  std::shared_ptr<std::function<void(int)>> onClick_;
  int selected_ = -1;
};

// The layer drawn in an exported scene: adds the items for `report` to
// `scene` (its graph must be of `module`), widens the scene's picture to
// them, and returns the graph's picture with the layer's legend above it.
// The drawing is kept alive by the returned picture.
Picture pictureWithCommLayer(const std::shared_ptr<GraphScene>& scene, const ir::Module& module,
                             std::shared_ptr<const api::CommunicationReport> report);

// The layer on the main window's graph view. Follows the view's layouts and
// the reports handed to it; on or off with toggleAction() (View >
// Communication Layer), remembered in QSettings as graph/communicationLayer.
class GraphCommLayer : public QObject {
  Q_OBJECT
 public:
  GraphCommLayer(DocumentState* state, GraphView* view);
  ~GraphCommLayer() override;

  // The report to draw and the document it was made for: drawn while the
  // graph shows that document (a step of the same run included).
  void setReport(std::shared_ptr<const api::CommunicationReport> report,
                 std::shared_ptr<const api::Document> doc);
  bool isLayerEnabled() const;
  void setLayerEnabled(bool on);
  QAction* toggleAction() const { return toggle_; }
  // What is drawn now (empty when off or when nothing is there to draw).
  const std::vector<CommGlyph>& glyphs() const;
  int glyphOfEntry(int entry) const;
  int selectedEntry() const { return selectedEntry_; }
  // The legend widget in the graph's viewport (shown with the layer, under
  // the mesh legend: GraphView::setExtraLegend).
  QWidget* legendWidget() const { return legend_; }

 public slots:
  // Place the glyphs again for the scene as it is now.
  void refresh();
  // Emphasise the glyph of report entry `entry` (-1: none) and, with
  // `centre`, bring it and its op into view at any zoom (GraphView::
  // bringIntoView: clear of the legends and the map, centred when it moves).
  void showEntry(int entry, bool centre = true);

 signals:
  // A glyph was clicked: its (first) report entry.
  void entryClicked(int entry);
  void glyphsChanged();

 protected:
  bool eventFilter(QObject* o, QEvent* e) override;

 private:
  DocumentState* state_;
  GraphView* view_;
  QPointer<QWidget> viewport_;
  QWidget* legend_;
  QAction* toggle_;
  std::shared_ptr<const api::CommunicationReport> report_;
  std::shared_ptr<const api::Document> reportDoc_;
  std::unique_ptr<CommLayerDrawing> drawing_;
  int selectedEntry_ = -1;
};

}  // namespace shardscope::widgets
