// SPDX-License-Identifier: GPL-2.0
/*
 * plugin-stackmap.so for KernelShark 2.x: the panel.  KernelShark calls a
 * plugin's menu initializer with its main window (a QMainWindow) when the
 * plugin is registered; the plugin docks a "Stack" panel there, beside the
 * graph and the list, that shows the stack of the event selected in the
 * list (by a click in the list or the graph, the keyboard, a search): the
 * frames symbolized from the trace's kallsyms, as fgdecode prints them.
 *
 * libkshark-dev installs no header of KernelShark's widgets, so the panel
 * knows them only as Qt does: the list is the QTableView inside the
 * KsTraceViewer, its "#" column is the row of KernelShark's data, and the
 * data side (plugin_stackmap_kshark.c) turns that row into its entry.  The
 * panel follows the selection by looking at it five times a second: any way
 * of selecting a row, and a reload that replaces the list's selection model,
 * are all seen the same way.
 *
 * STACKMAP_KSHARK_DUMP=FILE (tests, scripts): the panel writes its text to
 * FILE each time it changes, and the list rows on screen to FILE.rows, one
 * a line: "ROW CPU TIMESTAMP EVENT X Y" (X, Y: the screen point at the
 * middle of the row's Event cell).
 */
#include <QDockWidget>
#include <QFontDatabase>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QMainWindow>
#include <QPlainTextEdit>
#include <QSaveFile>
#include <QScrollBar>
#include <QTableView>
#include <QTimer>

#include <stdlib.h>

#include "libkshark.h"
#include "stackmap_kshark.h"

#define KS_EXPORT	__attribute__((visibility("default")))

namespace {

const char *const panelName = "stackmapStackPanel";

class StackPanel : public QDockWidget
{
public:
	explicit StackPanel(QMainWindow *win)
	: QDockWidget("Stack", win), _win(win)
	{
		setObjectName(panelName);
		_text.setObjectName("stackmapStackText");
		_text.setAccessibleName("stackmap stack");
		_text.setReadOnly(true);
		_text.setLineWrapMode(QPlainTextEdit::NoWrap);
		_text.setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
		_text.setPlainText("Select an event in the list.");
		setWidget(&_text);
		_dump = qgetenv("STACKMAP_KSHARK_DUMP");
		connect(&_timer, &QTimer::timeout, this, [this] { _poll(); });
		_timer.start(200);
	}

private:
	QMainWindow *_win;
	QPlainTextEdit _text;
	QTimer _timer;
	QString _dump;
	QString _shownKey;	/* what the text was made for */
	QString _rowsText;	/* what FILE.rows holds */
	bool _sized = false;	/* made wide enough once */

	/*
	 * Wide enough for "=> symbol+0xoff/0xsize (address)" lines, once the
	 * window has room for it (it is small until shown and laid out); after
	 * that the user's width stays.
	 */
	void _size()
	{
		int want = _text.fontMetrics().averageCharWidth() * 64;

		if (_sized || width() >= want) {
			_sized = true;
			return;
		}
		if (_win->isVisible() && _win->width() >= 2 * want) {
			_win->resizeDocks({this}, {want}, Qt::Horizontal);
			_sized = true;
		}
	}

	/* The list: the QTableView inside KernelShark's KsTraceViewer. */
	QTableView *_list() const
	{
		for (QTableView *v : _win->findChildren<QTableView *>()) {
			for (QObject *p = v->parent(); p; p = p->parent())
				if (!strcmp(p->metaObject()->className(),
					    "KsTraceViewer"))
					return v;
		}
		return nullptr;
	}

	/* The column of @name in @m, -1 when none. */
	static int _column(const QAbstractItemModel *m, const char *name)
	{
		for (int c = 0; c < m->columnCount(); c++)
			if (m->headerData(c, Qt::Horizontal).toString() == name)
				return c;
		return -1;
	}

	static QString _cell(const QAbstractItemModel *m, int row, int col)
	{
		return col < 0 ? QString() : m->data(m->index(row, col)).toString();
	}

	void _poll()
	{
		QTableView *v = _list();

		_size();
		if (!v || !v->model() || !v->selectionModel())
			return;
		_show(v);
		if (!_dump.isEmpty())
			_dumpRows(v);
	}

	/* The text for the selected row of @v, made when the selection changed. */
	void _show(QTableView *v)
	{
		const QAbstractItemModel *m = v->model();
		QModelIndexList sel = v->selectionModel()->selectedRows();
		const struct kshark_entry *e;
		QString key, head, text;
		bool ok = false;
		size_t row;
		char *stack;

		if (sel.isEmpty()) {
			_set("none", "Select an event in the list.");
			return;
		}
		int r = sel.first().row();
		row = _cell(m, r, _column(m, "#")).toULongLong(&ok);
		e = ok ? stackmap_kshark_row(row) : nullptr;
		key = QString("%1 %2").arg(row).arg(e ? (qulonglong)e->offset : 0);
		if (key == _shownKey)
			return;
		head = QString("#%1  %2-%3  [%4]  %5: %6")
			.arg(ok ? QString::number(row) : QString("?"))
			.arg(_cell(m, r, _column(m, "Task")))
			.arg(_cell(m, r, _column(m, "PID")))
			.arg(_cell(m, r, _column(m, "CPU")))
			.arg(_cell(m, r, _column(m, "Time Stamp")))
			.arg(_cell(m, r, _column(m, "Event")));
		if (!e) {
			/* The graph is drawn after the list is filled. */
			return;
		}
		if (_cell(m, r, _column(m, "CPU")) != QString::number(e->cpu)) {
			text = "<the list and the plot disagree about this row: select it again>";
		} else if (!stackmap_kshark_enabled(e->stream_id)) {
			text = "<the stackmap plugin is not enabled on this trace: Tools > Manage Plotting plugins>";
		} else {
			stack = stackmap_kshark_text(e);
			text = stack ? QString(stack) : QString("<out of memory>");
			free(stack);
		}
		_set(key, head + "\n" + text);
	}

	void _set(const QString &key, const QString &text)
	{
		if (key == _shownKey)
			return;
		_shownKey = key;
		_text.setPlainText(text);
		if (!_dump.isEmpty())
			_write(_dump, _text.toPlainText() + "\n");
	}

	/* The rows on screen, for a test that clicks one of them. */
	void _dumpRows(QTableView *v)
	{
		const QAbstractItemModel *m = v->model();
		int idx = _column(m, "#"), cpu = _column(m, "CPU");
		int ts = _column(m, "Time Stamp"), ev = _column(m, "Event");
		int first = v->rowAt(0), last = v->rowAt(v->viewport()->height() - 1);
		QString out;

		if (first < 0 || ev < 0)
			return;
		if (last < 0)
			last = m->rowCount() - 1;
		for (int r = first; r <= last; r++) {
			QRect rect = v->visualRect(m->index(r, ev));
			QPoint p = v->viewport()->mapToGlobal(rect.center());

			if (!v->viewport()->rect().contains(rect.center()))
				continue;
			out += QString("%1 %2 %3 %4 %5 %6\n")
				.arg(_cell(m, r, idx), _cell(m, r, cpu),
				     _cell(m, r, ts), _cell(m, r, ev))
				.arg(p.x()).arg(p.y());
		}
		if (out != _rowsText) {
			_rowsText = out;
			_write(_dump + ".rows", out);
		}
	}

	static void _write(const QString &path, const QString &text)
	{
		QSaveFile f(path);

		if (!f.open(QIODevice::WriteOnly))
			return;
		f.write(text.toUtf8());
		f.commit();
	}
};

} // namespace

/*
 * Called by KernelShark with its main window when the plugin is registered
 * (kernelshark -p stackmap, or Tools > Add plugins).  Returns the panel:
 * KernelShark deletes the widgets its plugins return before it unloads
 * them (KsPluginManager::deletePluginDialogs()).
 */
extern "C" KS_EXPORT void *KSHARK_MENU_PLUGIN_INITIALIZER(void *gui_ptr)
{
	QMainWindow *win = qobject_cast<QMainWindow *>(static_cast<QObject *>(gui_ptr));
	StackPanel *panel;

	if (!win)
		return nullptr;
	if (QDockWidget *old = win->findChild<QDockWidget *>(panelName))
		return old;
	panel = new StackPanel(win);
	win->addDockWidget(Qt::RightDockWidgetArea, panel);
	return panel;
}
