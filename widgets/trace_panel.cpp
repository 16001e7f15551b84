#include "trace_panel.h"

#include <QLabel>
#include <QVBoxLayout>

#include "document_state.h"

namespace shardscope::widgets {

TracePanel::TracePanel(DocumentState* state, QWidget* parent) : QWidget(parent), state_(state) {
  auto* layout = new QVBoxLayout(this);
  label_ = new QLabel(tr("<b>Propagation trace</b><br>When the propagation engine records its steps, "
                         "this panel will replay them: which op moved which axis to which value, "
                         "step by step, with the graph and the mesh view following."),
                      this);
  label_->setWordWrap(true);
  label_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  label_->setEnabled(false);
  layout->addWidget(label_);
  layout->addStretch(1);
}

}  // namespace shardscope::widgets
