import MoaLayout
import MoaSolver
import XCTest

/// Content that sizes itself: measure functions, their cache and errors, text wrapping, adaptive fonts,
/// fitting sizes, and the SVG text.
final class MeasureTests: XCTestCase {
    /// A label as a measure function: `chars` characters of 10 points, lines of 20 points, wrapped at the
    /// width (by characters: a simple, exact model). Counts its calls.
    final class FakeLabel {
        var chars: Int
        var calls: [MeasureProposal] = []
        init(_ chars: Int) { self.chars = chars }
        func measure(_ p: MeasureProposal) -> MeasuredSize {
            calls.append(p)
            let natural = Double(chars * 10)
            guard p.width.isFinite else { return MeasuredSize(width: natural, height: 20, baseline: 15) }
            let perLine = max(1, Int(p.width / 10))
            let lines = (chars + perLine - 1) / perLine
            return MeasuredSize(width: min(natural, Double(perLine * 10)), height: Double(lines * 20),
                                baseline: Double(lines * 20 - 5), firstBaseline: 15)
        }
    }

    /// A label pinned to the root's margins (8 each side), its top at 20: height follows the width.
    func makeLabel(_ chars: Int, width: Double = 320) throws -> (Layout, View, FakeLabel) {
        let layout = try Layout(width: width, height: 480)
        let v = try layout.addView("label")
        let fake = FakeLabel(chars)
        try v.setMeasure { fake.measure($0) }
        try layout.eqs("""
            label.left == 8
            label.right == root.right - 8
            label.top == 20
            """)
        return (layout, v, fake)
    }

    func testHeightFollowsWidthAsTheRootResizes() throws {
        let (layout, v, fake) = try makeLabel(100)
        try layout.solve()
        // 304 points wide: 30 characters a line, 4 lines.
        assertFrame(v, 8, 20, 304, 80)
        XCTAssertEqual(v.baselineOffset, 75)
        XCTAssertEqual(v.firstBaselineOffset, 15)
        XCTAssertEqual(fake.calls, [.natural, .width(304)])
        try layout.setRootSize(width: 568, height: 320)
        try layout.solve()
        assertFrame(v, 8, 20, 552, 40)   // 55 a line: 2 lines
        try layout.setRootSize(width: 216, height: 480)
        try layout.solve()
        assertFrame(v, 8, 20, 200, 100)  // 20 a line: 5 lines
        XCTAssertEqual(fake.calls.count, 4)
    }

    func testAResizeThatKeepsTheWidthDoesNotMeasureAndAWidthSeenBeforeIsCached() throws {
        let (layout, v, fake) = try makeLabel(100)
        try layout.solve()
        let before = layout.measureStatistics
        try layout.setRootSize(width: 320, height: 600)   // height only
        try layout.solve()
        XCTAssertEqual(fake.calls.count, 2)
        XCTAssertEqual(layout.measureStatistics.calls, before.calls)
        try layout.setRootSize(width: 568, height: 320)
        try layout.solve()
        XCTAssertEqual(fake.calls.count, 3)
        try layout.setRootSize(width: 320, height: 480)   // back: answered from the cache
        try layout.solve()
        XCTAssertEqual(fake.calls.count, 3)
        XCTAssertEqual(layout.measureStatistics.cacheHits, before.cacheHits + 1)
        assertFrame(v, 8, 20, 304, 80)
    }

    /// Content set, solved, cleared and set again, over and over: the view is listed for measuring once (it was
    /// listed again on every cycle, and each solve went through all the copies: found by the soak test).
    func testContentSetAndClearedOverAndOverIsListedOnce() throws {
        let (layout, v, fake) = try makeLabel(12)
        for _ in 0..<50 {
            try layout.solve()
            try v.setMeasure(nil)
            try v.setMeasure { fake.measure($0) }
        }
        try layout.solve()
        XCTAssertEqual(layout._measuredViewCount, 1)
        XCTAssertEqual(v.frame.height, 20)   // 12 characters fit on one line of 304 points
        try v.setMeasure(nil)
        try layout.solve()
        XCTAssertEqual(layout._measuredViewCount, 0)
    }

    func testInvalidateMeasuresAgain() throws {
        let (layout, v, fake) = try makeLabel(100)
        try layout.solve()
        fake.chars = 10
        try layout.solve()
        assertFrame(v, 8, 20, 304, 80)   // without invalidate the cached answers stand
        try v.invalidateMeasure()
        try layout.solve()
        assertFrame(v, 8, 20, 304, 20)
        XCTAssertEqual(fake.calls.count, 4)
    }

    func testHuggingLetsShortContentTakeItsNaturalWidth() throws {
        let layout = try Layout(width: 320, height: 480)
        let v = try layout.addView("label")
        let fake = FakeLabel(5)
        try v.setMeasure { fake.measure($0) }
        try layout.eqs("""
            label.left == 8
            label.right <= root.right - 8
            label.top == 20
            """)
        try layout.solve()
        assertFrame(v, 8, 20, 50, 20)
        fake.chars = 100
        try v.invalidateMeasure()
        try layout.solve()
        assertFrame(v, 8, 20, 304, 80)
    }

    func testAFailingMeasureFailsTheSolveAndChangesNothing() throws {
        struct Broken: Error, CustomStringConvertible { var description: String { "font not loaded" } }
        let (layout, v, fake) = try makeLabel(100)
        try layout.solve()
        var fail = false
        try v.setMeasure { p in
            if fail { throw Broken() }
            return fake.measure(p)
        }
        try layout.solve()
        fail = true
        try layout.setRootSize(width: 500, height: 480)
        let e = expectError { try layout.solve() }
        XCTAssertEqual(e?.kind, .callback)
        XCTAssertTrue(e?.message.contains("font not loaded") ?? false, e?.message ?? "")
        XCTAssertTrue(e?.message.contains("`label`") ?? false)
        assertFrame(v, 8, 20, 304, 80)   // frames stay as they were
        XCTAssertEqual(v.intrinsicHeight, 80)
        fail = false
        try layout.solve()
        assertFrame(v, 8, 20, 484, 60)   // 48 a line: 3 lines
    }

    func testAMeasureFunctionCannotChangeOrSolveTheLayout() throws {
        let (layout, v, fake) = try makeLabel(10)
        var inner: [LayoutError.Kind] = []
        try v.setMeasure { p in
            for attempt in [{ _ = try layout.eq("label.height >= 1") }, { _ = try layout.solve() },
                            { _ = try layout.addView("x") }, { try v.invalidateMeasure() }] {
                do { try attempt() } catch let e as LayoutError { inner.append(e.kind) } catch {}
            }
            XCTAssertEqual(layout.rootWidth, 320, "reading is fine")
            return fake.measure(p)
        }
        try layout.solve()
        XCTAssertEqual(Set(inner), [.misuse])
        XCTAssertEqual(inner.count, 8)
        XCTAssertNil(layout["x"])
        XCTAssertEqual(layout.constraints.count, 3)
    }

    func testContentThatNeverSettlesFailsClearly() throws {
        let layout = try Layout(width: 320, height: 480)
        let v = try layout.addView("square")
        // Its height is its width + 10, and its width its height: every round moves it.
        try v.setMeasure { p in MeasuredSize(width: 10, height: (p.width.isFinite ? p.width : 10) + 10) }
        try layout.eqs("""
            square.left == 0
            square.top == 0
            square.width == square.height
            """)
        let e = expectError { try layout.solve() }
        XCTAssertEqual(e?.kind, .callback)
        XCTAssertTrue(e?.message.contains("did not settle in \(Layout.maxMeasureRounds) solves") ?? false,
                      e?.message ?? "")
        XCTAssertEqual(v.intrinsicHeight, 0, "undone: 0 until measured")
    }

    func testBadAnswersAreRefused() throws {
        let (layout, v, _) = try makeLabel(10)
        try v.setMeasure { _ in MeasuredSize(width: .nan, height: 10) }
        XCTAssertEqual(expectError { try layout.solve() }?.kind, .callback)
        try v.setMeasure { _ in MeasuredSize(width: 10, height: -1) }
        XCTAssertEqual(expectError { try layout.solve() }?.kind, .callback)
        XCTAssertEqual(expectError { try v.setIntrinsicSize(width: 10, height: 10) }?.kind, .invalid)
        XCTAssertEqual(expectError { try v.setBaselineOffset(3) }?.kind, .invalid)
        XCTAssertEqual(expectError { try layout.root.setMeasure { _ in MeasuredSize(width: 1, height: 1) } }?.kind,
                       .invalid)
        try v.setMeasure(nil)
        XCTAssertNil(v.intrinsicWidth)
        XCTAssertNil(v.intrinsicHeight)
        try layout.solve()
        XCTAssertEqual(expectError { try v.invalidateMeasure() }?.kind, .invalid)
    }

    /// Wrapping labels stacked in a container whose width follows the root: the container's height is the
    /// labels' heights plus gaps, at every width.
    func testAStackOfWrappingLabelsInAResizingContainer() throws {
        let layout = try Layout(width: 320, height: 960)
        try layout.addView("box")
        var fakes: [FakeLabel] = []
        for (i, n) in [40, 5, 100].enumerated() {
            let v = try layout.addView("l\(i)", in: layout["box"])
            let f = FakeLabel(n)
            fakes.append(f)
            try v.setMeasure { f.measure($0) }
            try layout.eqs("""
                l\(i).left == box.left + 10
                l\(i).right == box.right - 10
                """)
        }
        try layout.eqs("""
            box.left == 0
            box.right == root.right
            box.top == 0
            l0.top == box.top + 10
            l1.top == l0.bottom + 8
            l2.top == l1.bottom + 8
            box.bottom == l2.bottom + 10
            """)
        for (w, heights) in [(320.0, [40.0, 20, 80]), (210, [60, 20, 120]), (1000, [20, 20, 40])] {
            try layout.setRootSize(width: w, height: 960)
            try layout.solve()
            XCTAssertEqual((0..<3).map { layout["l\($0)"]!.frame.height }, heights, "width \(w)")
            XCTAssertEqual(layout["box"]!.frame.height, heights.reduce(0, +) + 36)
        }
    }

    // MARK: - Text

    func wrap(_ s: String, _ width: Double, maxLines: Int = 0) throws -> TextLines {
        try TextLines.wrap(TextContent(s, style: TextStyle(fontSize: 10, maxLines: maxLines)), width: width,
                           rootWidth: 320, measurer: SimpleTextMeasurer())   // 6 points a character
    }

    /// A line height far below the height limit: the line count it allows is beyond Int (it trapped).
    func testATinyLineHeightUnderAHeightLimit() throws {
        let text = TextContent("the quick brown fox", style: TextStyle(fontSize: 10, lineHeight: 1e-300))
        let lines = try TextLines.wrap(text, width: 53, heightLimit: 100, rootWidth: 320, measurer: SimpleTextMeasurer())
        XCTAssertEqual(lines.lines, ["the", "quick", "brown", "fox"])
    }

    func testWrappingByWords() throws {
        XCTAssertEqual(try wrap("the quick brown fox", .infinity).lines, ["the quick brown fox"])
        XCTAssertEqual(try wrap("the quick brown fox", 60).lines, ["the quick", "brown fox"])   // 9 chars = 54
        XCTAssertEqual(try wrap("the quick brown fox", 54).lines, ["the quick", "brown fox"])
        XCTAssertEqual(try wrap("the quick brown fox", 53).lines, ["the", "quick", "brown", "fox"])
        XCTAssertEqual(try wrap("a\n\nb c", .infinity).lines, ["a", "", "b c"])
        XCTAssertEqual(try wrap("supercalifragilistic", 30).lines, ["super", "calif", "ragil", "istic"])
        XCTAssertEqual(try wrap("", 30).lines, [])
        let t = try wrap("one two three four five", 60, maxLines: 2)
        XCTAssertEqual(t.lines, ["one two", "three fou…"])   // cut at the character, as UILabel's tail truncation
        XCTAssertEqual(t.height, 24)   // 2 lines of 12
        XCTAssertEqual(t.widths[0], 42, accuracy: 1e-9)
        XCTAssertEqual(t.widths[1], 60, accuracy: 1e-9)
        XCTAssertEqual(try wrap("one two", 60, maxLines: 1).lines, ["one two"], "fits: no ellipsis")
    }

    func testTextViewsWrapAndDrawTheirLines() throws {
        let layout = try Layout(width: 320, height: 480)
        let v = try layout.addView("label")
        try v.setText(TextContent("Moa lays out text that wraps to the width it gets", style: TextStyle(fontSize: 10)))
        try layout.eqs("""
            label.left == 10
            label.right <= root.right - 10
            label.top == 10
            """)
        try layout.solve()
        XCTAssertEqual(v.frame.width, 294)   // 49 characters, on one line
        XCTAssertEqual(v.frame.height, 12)
        try layout.setRootSize(width: 160, height: 480)
        try layout.solve()
        let lines = try layout.textLines(of: v)!
        XCTAssertEqual(lines.lines, ["Moa lays out text that", "wraps to the width it", "gets"])
        XCTAssertEqual(v.frame.height, 36)
        XCTAssertEqual(v.firstBaselineOffset, lines.firstBaseline)
        let svg = layout.svg()
        XCTAssertTrue(svg.contains("font-family=\"DejaVu Sans Mono, monospace\" font-size=\"10\""), svg)
        XCTAssertTrue(svg.contains(">wraps to the width it</tspan>"), svg)
        XCTAssertEqual(expectError { try v.setText(TextContent("x", style: TextStyle(fontSize: 0))) }?.kind, .invalid)
    }

    func testAdaptiveFontFollowsTheRootWidth() throws {
        let layout = try Layout(width: 375, height: 667)
        let v = try layout.addView("title")
        try v.setText(TextContent("Hello", style: TextStyle(fontSize: 20, referenceWidth: 375, maximumFontSize: 30)))
        try layout.eqs("title.left == 0\ntitle.top == 0")
        try layout.solve()
        XCTAssertEqual(v.frame.width, 60)    // 5 x 0.6 x 20
        XCTAssertEqual(v.frame.height, 24)
        try layout.setRootSize(width: 667, height: 375)   // rotation: 35.6 pt, capped at 30
        try layout.solve()
        XCTAssertEqual(v.frame.width, 90, accuracy: 1e-9)
        XCTAssertEqual(try layout.textLines(of: v)?.fontSize, 30)
        try layout.setRootSize(width: 300, height: 667)   // 16 pt
        try layout.solve()
        XCTAssertEqual(v.frame.width, 48, accuracy: 1e-9)
    }

    // MARK: - Fitting size

    func testFittingSizeOfACellForAWidth() throws {
        let layout = try Layout(width: 320, height: 480)
        try layout.addView("cell")
        let label = try layout.addView("label", in: layout["cell"])
        let fake = FakeLabel(100)
        try label.setMeasure { fake.measure($0) }
        try layout.eqs("""
            cell.left == 0
            cell.top == 0
            cell.width == 320
            cell.height == 44 @ 250
            label.left == cell.left + 16
            label.right == cell.right - 16
            label.top == cell.top + 12
            label.bottom == cell.bottom - 12
            """)
        try layout.solve()
        let live = layout["cell"]!.frame
        // The cell's own constraints say 320 wide: 288 for the label, 28 a line, 4 lines, 80 + 24.
        let size = try layout.fittingSize(of: layout["cell"]!, width: 200, height: 0,
                                          horizontalPriority: LayoutPriority.fittingSizeLevel)
        XCTAssertEqual(size.width, 320)
        XCTAssertEqual(size.height, 104)
        XCTAssertEqual(layout["cell"]!.frame, live, "the live layout did not move")
    }

    func testFittingSizeSmallestAndLargest() throws {
        let layout = try Layout(width: 320, height: 480)
        try layout.addView("box")
        let label = try layout.addView("label", in: layout["box"])
        let fake = FakeLabel(30)
        try label.setMeasure { fake.measure($0) }
        try layout.eqs("""
            box.left == 0
            box.top == 0
            label.left == box.left + 10
            label.right == box.right - 10
            label.top == box.top + 5
            label.bottom == box.bottom - 5
            box.right == root.right
            """)
        try layout.solve()
        // Smallest: the label hugs its natural width at 250 but resists compression at 750, so the fitting
        // width (50) loses to compression: 300 + 20 wide, one line.
        let small = try layout.fittingSize(of: layout["box"]!)
        XCTAssertEqual(small.width, 320)
        XCTAssertEqual(small.height, 30)
        // Required 120 wide: 100 for the label, 10 a line, 3 lines.
        let cell = try layout.fittingSize(of: layout["box"]!, width: 120, height: 0,
                                          horizontalPriority: LayoutPriority.required)
        XCTAssertEqual(cell.width, 120)
        XCTAssertEqual(cell.height, 70)
        XCTAssertEqual(layout["box"]!.frame.width, 320, "the live layout did not move")
        XCTAssertEqual(expectError { _ = try layout.fittingSize(of: layout["box"]!, width: -1) }?.kind, .invalid)
    }

    /// A solve looks only at the measured views whose width changed (the solver's changed variables), and at
    /// all of them after a change that can concern any (content, the root width): the heights are those of a
    /// layout built afresh in the final state.
    func testASolveLooksAtTheLabelsWhoseWidthChanged() throws {
        let n = 60
        let layout = try Layout(width: 320, height: 4000)
        var fakes: [FakeLabel] = []
        var widths: [LayoutConstraint] = []
        for i in 0..<n {
            let v = try layout.addView("l\(i)")
            let fake = FakeLabel(10 + i)
            try v.setMeasure { fake.measure($0) }
            fakes.append(fake)
            try layout.eqs("l\(i).left == 8\nl\(i).top == \(i == 0 ? "0" : "l\(i - 1).bottom + 4")")
            widths += try layout.eqs("l\(i).width == \(100 + i)")
        }
        try layout.solve()
        XCTAssertGreaterThanOrEqual(layout.measureStatistics.lastExamined, n)
        try layout.solve()
        XCTAssertEqual(layout.measureStatistics.lastExamined, 0, "nothing moved")
        // One label narrower: it alone is looked at (its height changes; the labels below only move down).
        try widths[7].setConstant(40)
        try layout.solve()
        XCTAssertLessThanOrEqual(layout.measureStatistics.lastExamined, 2)
        XCTAssertEqual(layout["l7"]!.frame.height, fakes[7].measure(.width(40)).height)
        // Content invalidated: that label (and those whose width then changes: none here); a label removed: none.
        fakes[3].chars = 200
        try layout["l3"]!.invalidateMeasure()
        try layout.solve()
        XCTAssertLessThanOrEqual(layout.measureStatistics.lastExamined, 2)
        XCTAssertEqual(layout["l3"]!.frame.height, fakes[3].measure(.width(103)).height)
        try layout.removeView(layout["l59"]!)
        try layout.solve()
        XCTAssertLessThanOrEqual(layout.measureStatistics.lastExamined, 2, "a removal moves no width here")
        try widths[20].setConstant(30)
        try widths[21].setConstant(35)
        try layout.solve()
        XCTAssertLessThanOrEqual(layout.measureStatistics.lastExamined, 4)
        // The same final state built afresh.
        let fresh = try Layout(width: 320, height: 4000)
        for i in 0..<(n - 1) {
            let v = try fresh.addView("l\(i)")
            let fake = FakeLabel(fakes[i].chars)
            try v.setMeasure { fake.measure($0) }
            try fresh.eqs("l\(i).left == 8\nl\(i).top == \(i == 0 ? "0" : "l\(i - 1).bottom + 4")")
            try fresh.eqs("l\(i).width == \(widths[i].constant)")
        }
        try fresh.solve()
        for i in 0..<(n - 1) {
            XCTAssertEqual(layout["l\(i)"]!.frame, fresh["l\(i)"]!.frame, "l\(i)")
        }
    }
}
