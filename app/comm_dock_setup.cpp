#include "comm_dock_setup.h"

#include <QDockWidget>
#include <QMainWindow>

#include "comm/communication_panel.h"

namespace shardscope {

QDockWidget* addCommunicationDock(QMainWindow* window, widgets::DocumentState* state,
                                  QDockWidget* tabifyWith) {
  auto* dock = new QDockWidget(QMainWindow::tr("Communication"), window);
  dock->setObjectName(QStringLiteral("communicationDock"));
  dock->setWidget(new widgets::comm::CommunicationPanel(state, dock));
  window->addDockWidget(Qt::BottomDockWidgetArea, dock);
  if (tabifyWith) window->tabifyDockWidget(tabifyWith, dock);
  return dock;
}

}  // namespace shardscope
