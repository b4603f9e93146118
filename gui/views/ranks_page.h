// Ranks tab of a distributed run: a rank selector (which rank's run the other tabs show), the straggler
// and communication lines as `flopscope report` prints them, and the rank x module heatmap (module rows,
// rank columns, colour bar) painted by the latency heatmap's painter. Everything shown is the core's
// RankReport (analyzer/fleet/ranks.h); this page only lays it out.
#pragma once

#include <QWidget>

#include "gui/models/rank_matrix_model.h"
#include "gui/models/session.h"

class QComboBox;
class QLabel;
class QSpinBox;

namespace flopscope::gui {

class HeatmapWidget;

class RanksPage : public QWidget {
  Q_OBJECT

 public:
  explicit RanksPage(QWidget* parent = nullptr);
  void setSession(SessionPtr session);

  QComboBox* rankSelector() const { return selector_; }
  QSpinBox* depthBox() const { return depth_; }
  RankMatrixModel* model() const { return model_; }
  HeatmapWidget* heatmapWidget() const { return widget_; }
  // The straggler line as shown (without the communication line).
  QString stragglerText() const { return straggler_text_; }
  QString summaryText() const;

 public Q_SLOTS:
  void selectModule(const QString& path);

 Q_SIGNALS:
  // The user picked another rank: index into the session's RankSet::runs.
  void rankSelected(int index);
  void moduleSelected(const QString& path);

 private:
  void rebuild();

  SessionPtr session_;
  std::shared_ptr<const RankSet> ranks_;  // the set the widgets were built for
  QComboBox* selector_;
  QSpinBox* depth_;
  QLabel* summary_;
  RankMatrixModel* model_;
  HeatmapWidget* widget_;
  QString straggler_text_;
};

}  // namespace flopscope::gui
