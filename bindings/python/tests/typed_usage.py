"""Typed use of the public API: type-checked by test_packaging.py (mypy, when installed) and run by it.

Every assert_type is checked by mypy against the package's annotations (the package ships py.typed), so a
signature that loses its types (becomes Any) or changes fails the check.
"""
from __future__ import annotations

import sys
from typing import List, Optional, Tuple, Union

import moa

if sys.version_info >= (3, 11):
    from typing import assert_type
else:  # the check is mypy's; at run time it only returns the value
    def assert_type(value, _type):  # type: ignore[no-untyped-def]
        return value


def layout_demo() -> list[str]:
    out: list[str] = []
    with moa.Layout(320, 480) as L:
        assert_type(L, moa.Layout)
        sidebar: moa.View = L.view("sidebar")
        content = L.view("content")
        cs = L.eqs("sidebar.left == 0\nsidebar.top == 0\nsidebar.bottom == 0\nsidebar.width == 200\n"
                   "content.left == sidebar.right\ncontent.right == 0\ncontent.top == 0\ncontent.bottom == 0")
        assert_type(cs, List[moa.LayoutConstraint])
        changed = L.solve()
        assert_type(changed, List[moa.View])
        assert_type(L.solve(views=False), int)
        r = content.frame
        assert_type(r, moa.Rect)
        assert_type(r.width, float)
        out.append("%s %g" % (content.name, r.x))
        assert_type(L.find("nothing"), Optional[moa.View])
        assert_type(L["sidebar"], moa.View)

        c = cs[3]
        assert_type(c.constant, float)
        c.set_priority("high")  # (c.priority = "high" too: mypy >= 1.16 reads a setter's own type)
        c.constant = 180
        anim = c.animate(200, duration=0.2, curve="easeOut", done=lambda finished: out.append(str(finished)))
        assert_type(anim, moa.Animation)
        moved = L.advance(0.1)
        assert_type(moved, Optional[List[moa.View]])
        assert_type(L.advance(0.2, views=False), Optional[int])

        col = L.collapsible(sidebar, cs[0], "left")
        assert_type(col.toggle(duration=0.1), Optional[moa.Animation])
        L.seek(1.0)
        assert_type(col.collapsed, bool)

        row = L.stack("row", content, distribution="fillEqually", spacing=4)
        assert_type(row, moa.Stack)
        for name in "abc":
            row.add(L.view(name, row.view).set_intrinsic_size(10, 20))
        L.eqs("row.left == content.left\nrow.top == 0\nrow.width == 100\nrow.height == 20")
        assert_type(row.views, List[moa.View])
        assert_type(row.hide(L["b"]), Optional[moa.Animation])
        chain = L.chain([L.view("x"), L.view("y")], style="packed", gap=4)
        assert_type(chain, moa.Chain)
        assert_type(chain.bias, float)
        barrier = L.barrier("edge", "right", [L["x"], L["y"]], margin=8)
        assert_type(barrier, moa.Barrier)
        assert_type(barrier.guide, moa.View)

        for f in L.frames():
            assert_type(f, moa.Frame)
            assert_type(f.root_frame, moa.Rect)
            assert_type(f.superview, Optional[str])
        cols = L.frame_columns()
        assert_type(cols, moa.FrameColumns)
        assert_type(cols.root_x, memoryview)
        pan = L.pan(cs[4], "horizontal", [0, -200])
        assert_type(pan, moa.Pan)
        assert_type(pan.ended(velocity=-500), Optional[float])
        assert_type(L.svg(), str)
        assert_type(L.violations(), List[moa.Violation])
        assert_type(L.fitting_size(content, 100), Tuple[float, float])

        label = L.view("label")
        label.set_text("Hello, world", size=14, max_lines=2)
        lines, metrics = label.text_lines()
        assert_type(lines, List[str])
        assert_type(metrics["height"], float)
        label.set_measure(lambda w, wm, h, hm: (10.0, 20.0))
        L.set_font(lambda text, size: 0.5 * size * len(text))
        try:
            L.eq("content.widht == 10")
        except moa.ParseError as e:
            assert_type(e.line, int)
            assert_type(e.suggestion, str)
            out.append(e.suggestion)
        try:
            L.eq("sidebar.width == 500")
        except moa.ConflictError as e:
            for conflict in e.conflicts:
                assert_type(conflict, moa.Conflict)
                assert_type(conflict.equation, str)
    return out


def solver_demo() -> float:
    with moa.Solver() as s:
        x, y = s.var("x"), s.var("y")
        assert_type(x, moa.Variable)
        e = x + 10
        assert_type(e, moa.Expression)
        rel = e <= y
        assert_type(rel, moa.Relation)
        c = s.add(rel)
        assert_type(c, moa.Constraint)
        s.add(x == 100, "weak")
        z = s.var("z")
        many = s.add_many([z >= 0, (z <= 10, "strong"), (z == 5, "weak", 2.0, "mid")])
        assert_type(many, List[moa.Constraint])
        try:
            s.add_many([z <= -1])
        except moa.ConflictError as e:
            assert_type(e.index, Optional[int])
            assert_type(e.batch_conflicts, List[int])
        s.edit(y, "strong").suggest(y, 50).update()
        assert_type(s.counts(), Tuple[int, int])
        return x.value


def font_demo() -> Union[str, None]:
    if not moa.has_font():
        return None
    try:
        font = moa.Font()
    except OSError:
        return None
    with font:
        assert_type(font.advance("Hi", 12), float)
        assert_type(font.metrics(), moa.FontMetrics)
        return font.family


if __name__ == "__main__":
    print(layout_demo(), solver_demo(), font_demo(), moa.version)
