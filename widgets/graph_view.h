// The dataflow graph of the current function: a QGraphicsScene built from a
// GraphModel (graph_builder.h) and its Graphviz layout (graph_layout.h), and
// a view with zoom/pan/fit, Ctrl+F search, a legend overlay and an async
// layout with progress and Cancel.
#pragma once
#include <QFutureWatcher>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QPointer>
#include <QWidget>

#include "graph_builder.h"
#include "graph_layout.h"
#include "picture_export.h"

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QToolButton;

namespace shardscope::widgets {

class DocumentState;

class GraphScene : public QGraphicsScene {
  Q_OBJECT
 public:
  explicit GraphScene(QObject* parent = nullptr);
  // Replace the contents (node and edge infos must match the layout).
  // `keepAlive` (the document the model points into) is held as long as
  // the contents are shown.
  void setGraph(GraphModel model, const GraphLayout& layout,
                std::shared_ptr<const void> keepAlive = {});
  void clearGraph();
  const GraphModel& model() const { return model_; }
  bool hasGraph() const { return !model_.empty(); }

  // Emphasise the node of `op` and the chip/edges of `value`.
  void setHighlight(const ir::Op* op, const ir::Value* value);
  // Mark nodes whose text contains `text` (case-insensitive); returns their
  // node indices in layout order.
  std::vector<int> search(const QString& text);
  QRectF nodeRect(int node) const;
  int nodeOf(const ir::Op* op) const;

  // The whole graph with the legend at the top right, for export.
  Picture picture() const;

 signals:
  void opActivated(const ir::Op* op);
  void valueActivated(const ir::Value* value);

 private:
  void onSelectionChanged();
  GraphModel model_;
  std::shared_ptr<const void> keepAlive_;
  std::vector<QGraphicsItem*> nodeItems_;
  std::vector<QGraphicsItem*> edgeItems_;
  QRectF graphRect_;
  bool settingHighlight_ = false;
};

class GraphView : public QWidget {
  Q_OBJECT
 public:
  explicit GraphView(DocumentState* state, QWidget* parent = nullptr);
  ~GraphView() override;

  GraphScene* scene() const { return scene_; }
  QGraphicsView* view() const { return view_; }
  // Lay out on the calling thread (headless export, tests).
  void setSynchronous(bool sync) { sync_ = sync; }
  bool isLayoutRunning() const;
  // Picture for export (title added by the caller).
  Picture picture() const { return scene_->picture(); }

 public slots:
  void relayout();
  void cancelLayout();
  void zoomIn();
  void zoomOut();
  void zoomFit();
  void showSearch();

 signals:
  void layoutFinished(bool ok);

 protected:
  void resizeEvent(QResizeEvent* e) override;

 private:
  void applyLayout(quint64 request, const GraphLayout& layout);
  void updateHighlight();
  void runSearch(bool next);
  void setOverlay(const QString& text, bool busy);

  DocumentState* state_;
  GraphScene* scene_;
  QGraphicsView* view_;
  QLabel* title_;
  QWidget* searchBar_;
  QLineEdit* searchEdit_;
  QLabel* searchInfo_;
  QWidget* overlay_;
  QLabel* overlayText_;
  QProgressBar* progress_;
  QPushButton* cancelButton_;
  QFutureWatcher<GraphLayout> watcher_;
  quint64 request_ = 0;
  GraphModel pending_;
  std::shared_ptr<const void> pendingDoc_;
  bool sync_ = false;
  std::vector<int> matches_;
  int matchPos_ = -1;
};

}  // namespace shardscope::widgets
