"""A layout that puts its widgets side by side and starts a new line when the width runs out.

For rows of badges or figures that fit on one line in a wide window and must not widen the
page in a narrow one (a horizontal scroll bar) or in a longer language.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QWidget


class FlowLayout(QLayout):
    """Items left to right in their size hints, wrapped onto further lines when narrow.

    ``spacing`` is the gap between items on a line, ``line_spacing`` the gap between lines;
    either defaults to the layout's spacing (the style's). Hidden widgets take no space.
    """

    def __init__(self, parent: QWidget | None = None, spacing: int = -1,
                 line_spacing: int = -1):
        super().__init__(parent)
        self.items: list[QLayoutItem] = []  # Python keeps the items Qt hands over alive
        self.gaps = (spacing, line_spacing)
        if parent is None:
            self.setContentsMargins(0, 0, 0, 0)

    # --- QLayout ---------------------------------------------------------------------------
    def addItem(self, item: QLayoutItem) -> None:  # noqa: N802 (Qt API)
        self.items.append(item)

    def count(self) -> int:
        return len(self.items)

    def itemAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 (Qt API)
        return self.items[index] if 0 <= index < len(self.items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 (Qt API)
        return self.items.pop(index) if 0 <= index < len(self.items) else None

    def expandingDirections(self) -> Qt.Orientation:  # noqa: N802 (Qt API)
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 (Qt API)
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 (Qt API)
        return self.arrange(QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802 (Qt API)
        super().setGeometry(rect)
        self.arrange(rect, move=True)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt API)
        """Everything on one line."""
        shown = self.shown()
        width = sum(item.sizeHint().width() for item in shown)
        width += self.gap(0) * max(len(shown) - 1, 0)
        height = max((item.sizeHint().height() for item in shown), default=0)
        return self.with_margins(QSize(width, height))

    def minimumSize(self) -> QSize:  # noqa: N802 (Qt API)
        """The widest item: narrower than that, every item has a line of its own."""
        size = QSize(0, 0)
        for item in self.shown():
            size = size.expandedTo(item.minimumSize())
        return self.with_margins(size)

    # --- arrangement -----------------------------------------------------------------------
    def shown(self) -> list[QLayoutItem]:
        return [item for item in self.items if not item.isEmpty()]

    def gap(self, which: int) -> int:
        """The gap between items (0) or lines (1), in pixels: as given, else the style's."""
        given = self.gaps[which]
        return given if given >= 0 else max(self.spacing(), 0)

    def with_margins(self, size: QSize) -> QSize:
        m = self.contentsMargins()
        return size + QSize(m.left() + m.right(), m.top() + m.bottom())

    def arrange(self, rect: QRect, move: bool) -> int:
        """Place the items in ``rect`` (or only measure, ``move`` False); the height used."""
        m = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        x, y, line_height = area.x(), area.y(), 0
        for item in self.shown():
            hint = item.sizeHint()
            width = min(hint.width(), area.width())  # a lone item never exceeds the line
            if x > area.x() and x + width > area.right() + 1:
                x, y = area.x(), y + line_height + self.gap(1)
                line_height = 0
            height = item.heightForWidth(width) if item.hasHeightForWidth() else hint.height()
            if move:
                item.setGeometry(QRect(QPoint(x, y), QSize(width, height)))
            x += width + self.gap(0)
            line_height = max(line_height, height)
        return y + line_height - rect.y() + m.bottom()
