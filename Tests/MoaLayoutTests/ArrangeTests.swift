import MoaLayout
import XCTest

/// Stacks, guides, chains, barriers: frames for every distribution and alignment, hiding and its animation,
/// nesting, ownership and messages.
final class StackTests: XCTestCase {
    /// A 300 x 50 horizontal stack `row` at the root's top-left with a (40 x 20), b (60 x 30), c (80 x 40).
    func makeRow(_ distribution: StackDistribution = .fill, alignment: StackAlignment = .fill,
                 spacing: Double = 10) throws -> (Layout, StackView, [View]) {
        let L = try Layout(width: 400, height: 300)
        let s = try L.addStack("row", axis: .horizontal)
        try L.eqs("row.left == 0\nrow.top == 0\nrow.width == 300\nrow.height == 50")
        var views: [View] = []
        for (n, w, h) in [("a", 40.0, 20.0), ("b", 60, 30), ("c", 80, 40)] {
            let v = try L.addView(n, in: s.view)
            try v.setIntrinsicSize(width: w, height: h)
            try s.addArrangedView(v)
            views.append(v)
        }
        try s.setDistribution(distribution)
        try s.setAlignment(alignment)
        try s.setSpacing(spacing)
        try L.solve()
        return (L, s, views)
    }

    func xs(_ vs: [View]) -> [Double] { vs.map { ($0.frame.x * 1000).rounded() / 1000 } }
    /// An empty stack "st" of `distribution` at the root's top left, `width` x 50, in a layout wide enough.
    func makeStack(_ distribution: StackDistribution, width: Double = 300) throws -> (Layout, StackView) {
        let L = try Layout(width: width + 100, height: 300)
        let s = try L.addStack("st")
        try s.setDistribution(distribution)
        try L.eqs("st.left == 0\nst.top == 0\nst.width == \(width)\nst.height == 50")
        return (L, s)
    }

    /// A 3,000-wide stack of 60 views `v0` ... `v59` of intrinsic size 10 x 10, solved.
    func sixtyViews(_ distribution: StackDistribution) throws -> (Layout, StackView, [View]) {
        let (L, s) = try makeStack(distribution, width: 3000)
        let views = try (0 ..< 60).map { try L.addView("v\($0)") }
        for v in views { try v.setIntrinsicSize(width: 10, height: 10) }
        try s.insertArrangedViews(views, at: 0)
        try L.solve()
        return (L, s, views)
    }

    /// How many of the stack's constraints `body` replaced.
    func constraintsReplaced(_ s: StackView, _ body: () throws -> Void) throws -> Int {
        let before = Set(s.constraints.map(\.id))
        try body()
        return before.subtracting(s.constraints.map(\.id)).count
    }

    func ws(_ vs: [View]) -> [Double] { vs.map { ($0.frame.width * 1000).rounded() / 1000 } }

    func testDistributions() throws {
        var (L, s, v) = try makeRow(.fillEqually)
        XCTAssertEqual(ws(v), [93.333, 93.333, 93.333])
        XCTAssertEqual(xs(v), [0, 103.333, 206.667])

        (L, s, v) = try makeRow(.fillProportionally)
        XCTAssertEqual(ws(v), [62.222, 93.333, 124.444])
        XCTAssertEqual(xs(v), [0, 72.222, 175.556])

        (L, s, v) = try makeRow(.equalSpacing)
        XCTAssertEqual(ws(v), [40, 60, 80])
        XCTAssertEqual(xs(v), [0, 100, 220])

        (L, s, v) = try makeRow(.equalCentering)
        XCTAssertEqual(ws(v), [40, 60, 80])
        XCTAssertEqual(xs(v), [0, 110, 220])

        // fill: the view that hugs least takes the room.
        (L, s, v) = try makeRow(.fill)
        try v[2].setContentHuggingPriority(200, for: .horizontal)
        try L.solve()
        XCTAssertEqual(ws(v), [40, 60, 180])
        XCTAssertEqual(xs(v), [0, 50, 120])
        _ = s
    }

    func testAlignments() throws {
        let cases: [(StackAlignment, [Double], [Double])] = [
            (.fill, [0, 0, 0], [50, 50, 50]),
            (.top, [0, 0, 0], [20, 30, 40]),
            (.leading, [0, 0, 0], [20, 30, 40]),
            (.center, [15, 10, 5], [20, 30, 40]),
            (.bottom, [30, 20, 10], [20, 30, 40]),
            (.trailing, [30, 20, 10], [20, 30, 40]),
        ]
        for (a, ys, hs) in cases {
            let (_, _, v) = try makeRow(.equalSpacing, alignment: a)
            XCTAssertEqual(v.map(\.frame.y), ys, "\(a)")
            XCTAssertEqual(v.map(\.frame.height), hs, "\(a)")
        }
        for (a, offsets) in [(StackAlignment.firstBaseline, [15.0, 20, 30]), (.lastBaseline, [15, 20, 30])] {
            let (L, _, v) = try makeRow(.equalSpacing, alignment: a)
            for (view, b) in zip(v, offsets) {
                try view.setBaselineOffset(a == .lastBaseline ? b : nil, first: a == .firstBaseline ? b : nil)
            }
            try L.solve()
            XCTAssertEqual(v.map(\.frame.y), [15, 10, 0], "\(a)")
        }
    }

    func testVerticalStackWithMarginsAndCustomSpacing() throws {
        let L = try Layout(width: 400, height: 300)
        let s = try L.addStack("col", axis: .vertical)
        try L.eqs("col.left == 0\ncol.top == 0\ncol.width == 100")
        try s.view.setLayoutMargins(EdgeInsets(all: 10))
        try s.setLayoutMarginsRelativeArrangement(true)
        try s.setSpacing(4)
        var v: [View] = []
        for n in ["a", "b", "c"] {
            let x = try L.addView(n)   // not yet in the stack: adding moves it
            try x.setIntrinsicSize(width: 30, height: 20)
            try s.addArrangedView(x)
            v.append(x)
        }
        XCTAssertTrue(v.allSatisfy { $0.superview === s.view })
        try s.setCustomSpacing(12, after: v[0])
        try L.solve()
        XCTAssertEqual(v.map(\.frame.y), [10, 42, 66])
        XCTAssertEqual(v.map(\.frame.x), [10, 10, 10])
        XCTAssertEqual(v.map(\.frame.width), [80, 80, 80])
        XCTAssertEqual(s.view.frame.height, 96)   // the stack's height follows its views
        try s.setCustomSpacing(nil, after: v[0])
        try L.solve()
        XCTAssertEqual(v.map(\.frame.y), [10, 34, 58])
    }

    func testHiddenViewCollapsesAndAnimates() throws {
        let (L, s, v) = try makeRow(.fillEqually)
        let anim = try s.setHidden(true, v[1], animation: ArrangeAnimation(duration: 1, curve: .linear))
        XCTAssertNotNil(anim)
        XCTAssertTrue(s.isHidden(v[1]))
        try L.solve()
        XCTAssertEqual(xs(v), [0, 103.333, 206.667], "t = 0: nothing moved yet")
        try L.animator.advance(by: 0.5)
        XCTAssertEqual(ws(v), [119.167, 46.667, 119.167])
        XCTAssertEqual(xs(v), [0, 124.167, 180.833])
        try L.animator.advance(by: 0.5)
        XCTAssertEqual(ws(v), [145, 0, 145])
        XCTAssertEqual(xs(v), [0, 145, 155])
        // Showing again animates back to the first frames.
        try s.setHidden(false, v[1], animation: ArrangeAnimation(duration: 1, curve: .linear))
        try L.solve()
        XCTAssertEqual(ws(v), [145, 0, 145], "showing, t = 0: nothing moved yet")
        XCTAssertEqual(xs(v), [0, 145, 155])
        try L.animator.advance(by: 0.5)
        XCTAssertEqual(ws(v)[1], 46.667)
        try L.animator.advance(by: 0.6)
        XCTAssertEqual(ws(v), [93.333, 93.333, 93.333])
        XCTAssertEqual(xs(v), [0, 103.333, 206.667])
        XCTAssertFalse(s.constraints.contains { $0.description.contains("b.width == ") && $0.secondView == nil })

        // Without animation, and the first and last views.
        try s.setHidden(true, v[0])
        try s.setHidden(true, v[2])
        try L.solve()
        XCTAssertEqual(ws(v), [0, 300, 0])
        XCTAssertEqual(xs(v), [0, 0, 300])
    }

    func testHidingAndShowingInEveryDistributionIsContinuous() throws {
        for d in StackDistribution.allCases {
            for k in 0 ..< 3 {
                let (L, s, v) = try makeRow(d)
                try v[2].setContentHuggingPriority(200, for: .horizontal)   // fill: who stretches is decided
                try L.solve()
                let before = xs(v), beforeW = ws(v)
                try s.setHidden(true, v[k], animation: ArrangeAnimation(duration: 1, curve: .linear))
                try L.solve()
                XCTAssertEqual(xs(v), before, "\(d) \(k) t = 0")
                XCTAssertEqual(ws(v), beforeW, "\(d) \(k) t = 0")
                try L.animator.advance(by: 1)
                let end = xs(v), endW = ws(v)
                XCTAssertEqual(endW[k], 0, "\(d) \(k)")
                // After the animation the hidden view is parked: one more frame moves nothing.
                try L.animator.advance(by: 0.1)
                XCTAssertEqual(xs(v), end, "\(d) \(k) after the end")
                // The same layout made with the view hidden from the start.
                let (L2, s2, v2) = try makeRow(d)
                try v2[2].setContentHuggingPriority(200, for: .horizontal)
                try s2.setHidden(true, v2[k])
                try L2.solve()
                XCTAssertEqual(xs(v2), end, "\(d) \(k): animated end = hidden at once")
                // Showing again: nothing moves at t = 0, and the end is where it all started.
                try s.setHidden(false, v[k], animation: ArrangeAnimation(duration: 1, curve: .linear))
                try L.solve()
                XCTAssertEqual(xs(v), end, "\(d) \(k) showing, t = 0")
                XCTAssertEqual(ws(v), endW, "\(d) \(k) showing, t = 0")
                try L.animator.advance(by: 1.1)
                XCTAssertEqual(xs(v), before, "\(d) \(k) shown again")
                XCTAssertEqual(ws(v), beforeW, "\(d) \(k) shown again")
                try L.animator.advance(by: 0.1)
                XCTAssertEqual(xs(v), before, "\(d) \(k) after the show completed")
            }
        }
    }

    func testNestedStacks() throws {
        let L = try Layout(width: 400, height: 300)
        let col = try L.addStack("col", axis: .vertical)
        try L.eqs("col.left == 0\ncol.top == 0\ncol.width == 200\ncol.height == 200")
        try col.setDistribution(.fillEqually)
        let inner = try L.addStack("inner", in: col.view, axis: .horizontal)
        try inner.setDistribution(.fillEqually)
        let p = try L.addView("p", in: inner.view), q = try L.addView("q", in: inner.view)
        try inner.addArrangedView(p)
        try inner.addArrangedView(q)
        let r = try L.addView("r", in: col.view)
        try col.addArrangedView(inner.view)
        try col.addArrangedView(r)
        try L.solve()
        assertFrame(inner.view, 0, 0, 200, 100)
        assertFrame(r, 0, 100, 200, 100)
        assertFrame(p, 0, 0, 100, 100)
        assertFrame(q, 100, 0, 100, 100, inRoot: false)
        XCTAssertEqual(L.ambiguities().map(\.view.name), [])
    }

    func testOwnershipConflictsAndRemoval() throws {
        let (L, s, v) = try makeRow(.fillEqually)
        let owned = s.constraints
        XCTAssertFalse(owned.isEmpty)
        XCTAssertTrue(L.constraints.allSatisfy { c in !owned.contains(c) }, "owned constraints are not the user's")
        let e = expectError { try owned[0].setConstant(3) }
        XCTAssertEqual(e?.kind, .invalid)
        XCTAssertTrue(e?.message.contains("stack 'row'") ?? false, e?.message ?? "")
        // A conflict names the stack and its rule.
        let c = expectError { try L.eq("a.width == 50") }
        XCTAssertEqual(c?.kind, .unsatisfiable)
        XCTAssertTrue(c?.description.contains("stack 'row': fill equally") ?? false, c?.description ?? "")
        // Removing a view closes the gap; removing the stack view ends the stack.
        try L.removeView(v[1])
        try L.solve()
        XCTAssertEqual(xs([v[0], v[2]]), [0, 155])
        XCTAssertEqual(s.arrangedViews.map(\.name), ["a", "c"])
        try s.removeArrangedView(v[2])
        XCTAssertTrue(v[2].superview === s.view)
        try L.solve()
        XCTAssertEqual(ws([v[0]]), [300])
        try s.insertArrangedView(v[2], at: 0)
        try L.solve()
        XCTAssertEqual(xs([v[2], v[0]]), [0, 155])
        try L.removeView(s.view)
        XCTAssertFalse(s.isValid)
        XCTAssertEqual(expectError { try s.setSpacing(3) }?.kind, .stale)
        XCTAssertEqual(L.allConstraints.filter { if case .arrangement = $0.origin { return true }; return false }.count, 0)
    }

    func testFailedChangeChangesNothing() throws {
        let (L, s, v) = try makeRow(.fill)
        try L.eq("a.width == 250")
        try L.solve()
        let before = L.describeConstraints()
        let e = expectError { try s.setDistribution(.fillEqually) }
        XCTAssertEqual(e?.kind, .unsatisfiable)
        XCTAssertEqual(s.distribution, .fill)
        XCTAssertEqual(L.describeConstraints(), before)
        XCTAssertEqual(expectError { try s.setSpacing(.nan) }?.kind, .invalid)
        XCTAssertEqual(expectError { try s.insertArrangedView(v[0], at: 7) }?.kind, .invalid)
        XCTAssertEqual(expectError { try s.addArrangedView(s.view) }?.kind, .invalid)
    }

    /// A move within the stack that fails leaves the view arranged there: removing it later updates the stack
    /// (the undo used to forget the view's stack, and the stack then kept a removed view).
    func testFailedMoveKeepsTheViewArranged() throws {
        let (L, s) = try makeStack(.fillEqually)
        let a = try L.addView("a", in: s.view), b = try L.addView("b", in: s.view)
        try s.addArrangedView(a)
        try s.addArrangedView(b)
        try L.solve()
        let pin = try L.eq("a.left == 0")
        XCTAssertEqual(expectError { try s.insertArrangedView(b, at: 0) }?.kind, .unsatisfiable)
        XCTAssertEqual(s.arrangedViews.map(\.name), ["a", "b"])
        try L.remove(pin)
        try L.removeView(b)
        XCTAssertEqual(s.arrangedViews.map(\.name), ["a"])
        try L.solve()
        assertFrame(a, 0, 0, 300, 50)
    }

    func testRetargetingMidwayIsSmooth() throws {
        let (L, s, v) = try makeRow(.fillEqually)
        let linear = ArrangeAnimation(duration: 1, curve: .linear)
        try s.setHidden(true, v[1], animation: linear)
        try L.animator.advance(by: 0.5)
        XCTAssertEqual(ws(v), [119.167, 46.667, 119.167])
        // Hiding again on the way changes nothing: the running animation goes on.
        var done = 0
        try s.setHidden(true, v[1], animation: linear) { _ in done += 1 }
        try L.animator.advance(by: 0.05)
        XCTAssertEqual(ws(v)[1], 41.999, accuracy: 0.01)
        XCTAssertEqual(done, 1)
        // Showing from halfway: back to the start, smoothly, and nothing jumps after the end.
        try s.setHidden(false, v[1], animation: linear)
        try L.solve()
        XCTAssertEqual(ws(v)[1], 41.999, accuracy: 0.01)
        try L.animator.advance(by: 0.5)
        XCTAssertGreaterThan(ws(v)[1], 42)
        XCTAssertLessThan(ws(v)[1], 93.333)
        try L.animator.advance(by: 0.6)
        XCTAssertEqual(ws(v), [93.333, 93.333, 93.333])
        XCTAssertEqual(xs(v), [0, 103.333, 206.667])
        try L.animator.advance(by: 0.1)
        XCTAssertEqual(xs(v), [0, 103.333, 206.667])
    }

    func testMovingAnArrangedViewLeavesItsStack() throws {
        let (L, s, v) = try makeRow(.fillEqually)
        let other = try L.addStack("other", axis: .vertical)
        try L.eqs("other.left == 0\nother.top == 100\nother.width == 100")
        try other.addArrangedView(v[0])
        XCTAssertEqual(s.arrangedViews.map(\.name), ["b", "c"])
        XCTAssertTrue(v[0].superview === other.view)
        try L.solve()
        XCTAssertEqual(ws([v[1], v[2]]), [145, 145])
        assertFrame(v[0], 0, 0, 100, 20)
        // Moving it out by hand leaves the arrangement too.
        try v[0].setSuperview(L.root)
        XCTAssertTrue(other.arrangedViews.isEmpty)
        // A failed insert changes nothing (a conflicting width).
        try L.eq("a.width == 10")
        let e = expectError { try s.insertArrangedView(v[0], at: 0) }
        XCTAssertEqual(e?.kind, .unsatisfiable)
        XCTAssertTrue(v[0].superview === L.root)
        XCTAssertEqual(s.arrangedViews.map(\.name), ["b", "c"])
    }

    func testAnimatedHideThatCannotHoldFailsAtTheCall() throws {
        let (L, s, v) = try makeRow(.fill)
        try L.eq("a.width == 100")
        try L.solve()
        let before = xs(v)
        let e = expectError { try s.setHidden(true, v[0], animation: ArrangeAnimation(duration: 1, curve: .linear)) }
        XCTAssertEqual(e?.kind, .unsatisfiable)
        XCTAssertFalse(s.isHidden(v[0]))
        try L.animator.advance(by: 1)
        XCTAssertEqual(xs(v), before)
        XCTAssertFalse(L.animator.isAnimating)
    }

    func testProportionalFollowsIntrinsicSizes() throws {
        let (L, _, v) = try makeRow(.fillProportionally, spacing: 0)
        try v[0].setIntrinsicSize(width: 120, height: 20)
        try L.solve()
        XCTAssertEqual(ws(v), [138.462, 69.231, 92.308])
    }

    /// A stack appended to one view at a time ends as the same system as one built at once, in about as many
    /// cells: the spacing `v.leading == previous.trailing` defines each view's position, not the trailing-edge
    /// rule that came before it (which then held every later position in a long row: 120 views left 31k cells, 59k with fillEqually).
    func testStackAppendedOneViewAtATimeStaysLinear() throws {
        for distribution in [StackDistribution.fill, .fillEqually] {
            let L = try Layout(width: 1000, height: 400)
            let s = try L.addStack("s")
            try s.setDistribution(distribution)
            try L.eqs("s.left == 0\ns.top == 0\ns.right == root.right\ns.height == 40")
            let n = 120
            for i in 0 ..< n {
                let v = try L.addView("v\(i)", in: s.view)
                try L.eqs("v\(i).width == 2 @ 500")
                try s.addArrangedView(v)
            }
            try L.solve()
            let cells = L.usage.solver.cells
            XCTAssertLessThan(cells, 30 * n, "\(distribution): \(cells) cells for \(n) views")
            let x = s.arrangedViews.map { $0.frame.x }
            XCTAssertEqual(x.last!, distribution == .fill ? 998 : 1000 - 1000.0 / Double(n), accuracy: 1e-6)
            for k in 1 ..< n { XCTAssertGreaterThanOrEqual(x[k], x[k - 1] - 1e-9) }
        }
    }

    func testTakingAnIntrinsicSizeAwayUpdatesAProportionalStack() throws {
        let (L, s) = try makeStack(.fillProportionally)
        let a = try L.addView("a", in: s.view), b = try L.addView("b", in: s.view)
        try a.setIntrinsicSize(width: 10, height: nil)
        try b.setIntrinsicSize(width: 20, height: nil)
        try s.addArrangedView(a)
        try s.addArrangedView(b)
        try L.solve()
        assertFrame(b, 100, 0, 200, 50)
        // Without an intrinsic width b takes no share (it kept `b.width == a.width * 2`).
        try b.setIntrinsicSize(width: nil, height: nil)
        try L.solve()
        assertFrame(a, 0, 0, 300, 50)
        assertFrame(b, 300, 0, 0, 50)
    }

    /// Equal sizes follow the previous view's: a view inserted at the front changes a few of the stack's
    /// constraints, not one per view (following the first view's, every size rule changed with the first view).
    func testInsertAtTheFrontChangesAFewConstraints() throws {
        let (L, s) = try makeStack(.fillEqually, width: 3000)
        let views = try (0 ..< 60).map { try L.addView("v\($0)") }
        try s.insertArrangedViews(views, at: 0)
        try L.solve()
        let before = Set(s.constraints.map(\.id))
        try s.insertArrangedView(try L.addView("first"), at: 0)
        let after = Set(s.constraints.map(\.id))
        XCTAssertLessThanOrEqual(before.subtracting(after).count, 4, "constraints replaced by one insert")
        try L.solve()
        for v in s.arrangedViews { XCTAssertEqual(v.frame.width, 3000.0 / 61, accuracy: 1e-6) }
        XCTAssertNil(s._rulesProblem())
    }

    /// Hiding or showing a view of a fill stack replaces the few rules around it: the fill order's tie-break
    /// weights follow the arranged index, so no other view's rule changes (they followed the shown views'
    /// index: hiding the middle view of 8,000 made 4,000 rules again, 60 ms).
    func testHidingAViewOfAFillStackChangesAFewConstraints() throws {
        let (L, s, views) = try sixtyViews(.fill)
        for hidden in [true, false] {
            let replaced = try constraintsReplaced(s) { try s.setHidden(hidden, views[30]) }
            XCTAssertLessThanOrEqual(replaced, 4, "constraints replaced, hidden: \(hidden)")
            try L.solve()
            XCTAssertNil(s._rulesProblem())
        }
        XCTAssertEqual(views[0].frame.width, 3000 - 59 * 10, accuracy: 1e-6, "the first view takes the room")
    }

    /// The same for the spacers of equalSpacing and equalCentering stacks: the gap before each view keeps its
    /// spacer (but the first gap's, spacer 0), so hiding, removing or inserting a view changes the spacers
    /// around it only (numbered along the stack, hiding one of 1,000 views remade every rule after it: 141 ms).
    func testChangingASpacedStacksViewsChangesAFewConstraints() throws {
        for distribution in [StackDistribution.equalSpacing, .equalCentering] {
            let (L, s, views) = try sixtyViews(distribution)
            func change(_ what: String, _ body: () throws -> Void) throws {
                XCTAssertLessThanOrEqual(try constraintsReplaced(s, body), 12, "\(distribution): \(what)")
                try L.solve()
                XCTAssertNil(s._rulesProblem(), "\(distribution): \(what)")
                let shown = s.arrangedViews.filter { !s.isHidden($0) }
                let gaps = zip(shown, shown.dropFirst()).map { distribution == .equalSpacing
                    ? $1.frame.minX - $0.frame.maxX : $1.frame.midX - $0.frame.midX }
                for g in gaps { XCTAssertEqual(g, gaps[0], accuracy: 1e-6, "\(distribution): \(what): equal gaps") }
                XCTAssertEqual(shown.last!.frame.maxX, 3000, accuracy: 1e-6, "\(distribution): \(what)")
            }
            try change("hide one") { try s.setHidden(true, views[30]) }
            try change("show it") { try s.setHidden(false, views[30]) }
            try change("hide the first") { try s.setHidden(true, views[0]) }
            try change("remove one") { try s.removeArrangedView(views[20]) }
            let m = try L.addView("m")
            try m.setIntrinsicSize(width: 10, height: 10)
            try change("insert one") { try s.insertArrangedView(m, at: 10) }
            try change("show the first") { try s.setHidden(false, views[0]) }
        }
    }

    /// Removing, inserting and moving views of a fill stack replaces a few rules too: the tie-break weights of
    /// the views that stay in order are kept (`fillOrder()`), and the first view still takes the room, also after
    /// many views inserted at the front (the weights between two views run out and are all made again).
    func testChangingAFillStacksViewsKeepsTheOthersWeights() throws {
        var (L, s, views) = try sixtyViews(.fill)
        func change(_ what: String, _ body: () throws -> Void) throws {
            XCTAssertLessThanOrEqual(try constraintsReplaced(s, body), 8, "constraints replaced: \(what)")
            try L.solve()
            XCTAssertNil(s._rulesProblem(), what)
            let first = s.arrangedViews[0]
            XCTAssertEqual(first.frame.width, 3000 - Double(s.arrangedViews.count - 1) * 10, accuracy: 1e-6,
                           "the first view takes the room: \(what)")
        }
        try change("remove the first") { try s.removeArrangedView(views[0]) }
        try change("remove one in the middle") { try s.removeArrangedView(views[30]) }
        let m = try L.addView("m")
        try m.setIntrinsicSize(width: 10, height: 10)
        try change("insert in the middle") { try s.insertArrangedView(m, at: 20) }
        try change("move to the front") { try s.insertArrangedView(views[40], at: 0) }
        // The weights before the first run out, and are made again once, in the middle of their range: the
        // next views put in front find room (made again from 16, they were made again every 14 views).
        var madeAgain = 0
        for k in 0..<100 {
            let v = try L.addView("f\(k)")
            try v.setIntrinsicSize(width: 10, height: 10)
            views.append(v)
            let replaced = try constraintsReplaced(s) { try s.insertArrangedView(v, at: 0) }
            try L.solve()
            if k == 0 { XCTAssertLessThanOrEqual(replaced, 8) }
            if replaced > 8 { madeAgain += 1 }
            XCTAssertEqual(v.frame.width, 3000 - Double(s.arrangedViews.count - 1) * 10, accuracy: 1e-6, "front \(k)")
        }
        XCTAssertLessThanOrEqual(madeAgain, 1, "times the weights were made again")
        XCTAssertNil(s._rulesProblem())
        // Most views removed: the weights of views gone are forgotten, those of the others kept (a fresh pass
        // gave other weights than the update had made, when the forgetting lost them).
        for v in s.arrangedViews.dropFirst(12) {
            try s.removeArrangedView(v)
            XCTAssertNil(s._rulesProblem())
        }
    }

    /// An update without animation while (or after) the stack's constants were animated sets every constraint
    /// to its rule: the hiding view does not stay half hidden (review, eighteenth session: updates that kept the
    /// sections that had not changed left the animated constants where the animation was).
    func testAnUpdateAfterAnInterruptedAnimationSetsEveryRule() throws {
        for cancel in [false, true] {
            let (L, s, v) = try makeRow(.fillEqually)
            try s.setHidden(true, v[0], animation: ArrangeAnimation(duration: 1, curve: .linear))
            _ = try L.animator.advance(by: 0.5)
            XCTAssertGreaterThan(v[0].frame.width, 1)
            if cancel { L.animator.cancelAll(); _ = try L.animator.advance(by: 0.1) }
            try s.setSpacing(20)
            try L.solve()
            XCTAssertEqual(ws(v), [0, 140, 140], "cancelled: \(cancel)")
            XCTAssertNil(s._rulesProblem())
            _ = try L.animator.advance(by: 2)
            XCTAssertEqual(ws(v), [0, 140, 140], "cancelled: \(cancel)")
        }
    }

    /// A vertical stack aligns baselines as `fill`: no rule fits it to its widest view.
    func testVerticalBaselineAlignmentIsFill() throws {
        let L = try Layout(width: 400, height: 300)
        let s = try L.addStack("col", axis: .vertical)
        let a = try L.addView("a"), b = try L.addView("b")
        try a.setIntrinsicSize(width: nil, height: 20)
        try b.setIntrinsicSize(width: nil, height: 30)
        try s.insertArrangedViews([a, b], at: 0)
        try s.setAlignment(.firstBaseline)
        try L.eqs("col.left == 0\ncol.top == 0\na.width == 120 @30")
        try L.solve()
        XCTAssertEqual(s.view.frame.width, 120, accuracy: 1e-9)
        XCTAssertFalse(s.constraints.contains {
            if case .arrangement(_, let rule) = $0.origin { return rule.hasPrefix("fit") } else { return false }
        })
    }

    func testInsertingManyViewsIsOneChange() throws {
        let (L, s) = try makeStack(.fillEqually)
        let a = try L.addView("a"), b = try L.addView("b"), c = try L.addView("c")
        try s.insertArrangedViews([a, b], at: 0)
        try s.insertArrangedViews([c, a], at: 1)   // a moves: inserted among the views not listed (b)
        XCTAssertEqual(s.arrangedViews.map(\.name), ["b", "c", "a"])
        XCTAssertTrue(a.superview === s.view && c.superview === s.view)
        try L.solve()
        assertFrame(a, 200, 0, 100, 50)
        XCTAssertEqual(expectError { try s.insertArrangedViews([b, b], at: 0) }?.kind, .invalid)
        XCTAssertEqual(expectError { try s.insertArrangedViews([b], at: 3) }?.kind, .invalid)
        // A refused change arranges none of them and moves none.
        let d = try L.addView("d"), e = try L.addView("e")
        try L.eqs("e.width == 400")
        XCTAssertEqual(expectError { try s.insertArrangedViews([d, e], at: 0) }?.kind, .unsatisfiable)
        XCTAssertEqual(s.arrangedViews.map(\.name), ["b", "c", "a"])
        XCTAssertTrue(d.superview === L.root && e.superview === L.root)
        XCTAssertNil(s._rulesProblem())
        try L.solve()
        assertFrame(a, 200, 0, 100, 50)
    }

    /// Updates make only the rules of the sections that changed (`RuleSection`): after every one of a random
    /// run of changes (inserts, moves, removals, hiding with and without animation, properties, custom spacing,
    /// intrinsic sizes, views removed from the layout, refused changes), the constraints a stack keeps are
    /// exactly the rules made afresh from its members and properties.
    func testUpdatesKeepTheRulesOfAFreshPass() throws {
        // (72 rounds of this seed meet a fill weight lost (round 68) and an animated update that left a constant
        // off its rule by rounding (round 61), both fixed.)
        var rng = SplitMix(state: 20261129)
        for round in 0 ..< 72 {
            let L = try Layout(width: 2000, height: 1000)
            let s = try L.addStack("s", axis: round % 2 == 0 ? .horizontal : .vertical)
            try L.eqs("s.left == 0\ns.top == 0\ns.width == 1500\ns.height == 900")
            var pool: [View] = []
            var made = 0
            func fresh() throws -> View {
                made += 1
                let v = try L.addView("v\(made)", in: s.view)
                try v.setIntrinsicSize(width: Double(5 + rng.int(20)), height: Double(5 + rng.int(20)))
                pool.append(v)
                return v
            }
            for _ in 0 ..< 8 { try s.addArrangedView(try fresh()) }
            for step in 0 ..< 150 {
                let views = s.arrangedViews
                let pick = views.isEmpty ? nil : views[rng.int(views.count)]
                do {
                    switch rng.int(15) {
                    case 0, 1: try s.addArrangedView(try fresh())
                    case 2, 3: try s.insertArrangedView(try fresh(), at: rng.int(views.count + 1))
                    case 4: if let v = pick { try s.insertArrangedView(v, at: rng.int(views.count)) }
                    case 5: if let v = pick { try s.removeArrangedView(v) }
                    case 6: if let v = pick { try s.setHidden(!s.isHidden(v), v) }
                    case 7:
                        // Animated: to the end, left running, or cancelled half way (the next update without
                        // animation sets every rule again).
                        if let v = pick {
                            try s.setHidden(!s.isHidden(v), v, animation: ArrangeAnimation(duration: 0.2))
                            _ = try L.animator.advance(by: 0.1)
                            switch rng.int(3) {
                            case 0: _ = try L.animator.advance(by: 0.2)
                            case 1: break
                            default: L.animator.cancelAll(); _ = try L.animator.advance(by: 0.01); continue
                            }
                        }
                    case 8: try s.setDistribution(StackDistribution.allCases[rng.int(StackDistribution.allCases.count)])
                    case 9: try s.setAlignment(StackAlignment.allCases[rng.int(StackAlignment.allCases.count)])
                    case 10: try s.setSpacing(Double(rng.int(4)))
                    case 11: if let v = pick { try s.setCustomSpacing(rng.int(2) == 0 ? nil : Double(rng.int(5)), after: v) }
                    case 12: if let v = pick { try v.setIntrinsicSize(width: Double(5 + rng.int(20)), height: nil) }
                    case 13: if let v = pick { try L.removeView(v) }
                    default: try s.setLayoutMarginsRelativeArrangement(rng.int(2) == 0)
                    }
                } catch let e as LayoutError where e.kind == .unsatisfiable {
                    // Refused and undone: the next update starts from what the stack had.
                }
                try L.solve()
                if L.animator.isAnimating { continue }   // constants on their way
                if let problem = s._rulesProblem() {
                    XCTFail("round \(round), step \(step): \(problem)")
                    return
                }
            }
        }
    }
}

final class GuideChainBarrierTests: XCTestCase {
    /// A chain with weights over views with sizes of their own, made at once: the ties between the weighted
    /// sizes go in before the rule at the chain's end stretches them, so no tie moves every size (made after
    /// it: 1,000 views 6 s, 2,000 views 49 s). The room is shared in proportion to the weights.
    func testAWeightedChainOfSizedViewsIsCheapToMake() throws {
        let L = try Layout(width: 10_000, height: 100)
        let n = 150
        let views = try (0 ..< n).map { try L.addView("v\($0)") }
        for v in views { try v.setIntrinsicSize(width: 10, height: 10) }
        let rewrittenBefore = L.solver._rowsRewrittenByKind.reduce(0, +)
        try L.addChain(views, axis: .horizontal, gap: 2, weights: views.indices.map { Double(1 + $0 % 3) })
        try L.solve()
        let rewritten = L.solver._rowsRewrittenByKind.reduce(0, +) - rewrittenBefore
        XCTAssertLessThan(rewritten, 40 * n, "rows rewritten")
        let unit = views[0].frame.width / 1
        for (i, v) in views.enumerated() { XCTAssertEqual(v.frame.width, unit * Double(1 + i % 3), accuracy: 1e-6) }
        XCTAssertEqual(views[n - 1].frame.maxX, 10_000, accuracy: 1e-6)
    }

    /// The sizes of a weighted chain are tied to a unit guide ranked below them, so each tie defines its view's
    /// size whatever the weights: the tableau stays in proportion to the views, and a weight changed changes
    /// one tie. Tied to the first view, a view that weighed more went in as an ordinary row and every row of
    /// the views' own sizes held all of them (200 views weighing 1, 2, 3 in turn: about 110,000 cells; setting
    /// one weight rewrote 800 rows of 540 cells each). Weights raised past the unit one at a time make every
    /// rule again once more than 8 views weigh more than it; frames follow the weights throughout.
    func testAWeightedChainStaysLinearAsWeightsChange() throws {
        let L = try Layout(width: 100_000, height: 100)
        let n = 200
        var views: [View] = []
        for i in 0 ..< n {
            let v = try L.addView("v\(i)")
            try v.setIntrinsicSize(width: 10, height: 10)
            views.append(v)
        }
        var weights = views.indices.map { Double(1 + $0 % 3) }
        let chain = try L.addChain(views, axis: .horizontal, gap: 2, weights: weights)
        try L.solve()
        func check(_ what: String) {
            let unit = views[0].frame.width / weights[0]
            for (i, v) in views.enumerated() {
                XCTAssertEqual(v.frame.width, unit * weights[i], accuracy: 1e-6, "\(what): v\(i)")
            }
            XCTAssertEqual(views[n - 1].frame.maxX, 100_000, accuracy: 1e-6, what)
            XCTAssertLessThan(L.solver._statistics.cells, 60 * n, "\(what): cells")
            XCTAssertNil(chain._rulesProblem(), what)
        }
        check("made")
        let before = L.solver._cellsVisitedByKind.reduce(0, +)
        weights[n / 2] = 2.5
        try chain.setWeight(2.5, of: views[n / 2])
        try L.solve()
        XCTAssertLessThan(L.solver._cellsVisitedByKind.reduce(0, +) - before, 100 * n, "cells visited by one weight")
        check("one weight")
        // Past the unit (4): the first few ties are ordinary rows, then every rule is made again.
        for k in 0 ..< 40 {
            let i = (k * 7) % n
            weights[i] = 10 + Double(k)
            try chain.setWeight(weights[i], of: views[i])
            try L.solve()
            check("weight \(k) raised")
        }
        XCTAssertEqual(L.snapshot(includeGuides: true).views.filter { $0.name.hasSuffix("#unit") }.count, 1)
        try chain.remove()
        XCTAssertFalse(L.snapshot(includeGuides: true).views.contains { $0.name.contains("#") })
    }

    /// A weighted chain squeezed below its views' own sizes: the rule at its end sets the unit, which compresses
    /// the lighter views. Phase one reached that pivot by pivot over rows that all held the unit's definition
    /// (5,000 views 2 s); the end's row now takes a subject that drives those rows negative, and the dual
    /// simplex repairs each with a symbol of its own (`SolverCore.repairableSubject`).
    func testASqueezedWeightedChainIsCheapToMake() throws {
        let n = 300
        let L = try Layout(width: 2_998, height: 100)
        var views: [View] = []
        for i in 0 ..< n {
            let v = try L.addView("v\(i)")
            try v.setIntrinsicSize(width: 10, height: 10)
            views.append(v)
        }
        let rewritten = L.solver._rowsRewrittenByKind, pivots = L.solver._pivotsByKind
        try L.addChain(views, axis: .horizontal, gap: 2, weights: views.indices.map { Double(1 + $0 % 3) })
        try L.solve()
        let phaseOne = L.solver._pivotsByKind[2] - pivots[2]
        let rows = zip(L.solver._rowsRewrittenByKind, rewritten).map { $0 - $1 }.reduce(0, +)
        XCTAssertEqual(phaseOne, 0, "phase one pivots")
        XCTAssertLessThan(rows, 20 * n, "rows rewritten")
        // (2,998 - 299 * 2) / 600 = 4 a unit of weight: 4, 8 and 12 wide, under and over their own 10.
        for (i, v) in views.enumerated() { XCTAssertEqual(v.frame.width, 4 * Double(1 + i % 3), accuracy: 1e-9, "v\(i)") }
        XCTAssertEqual(views[n - 1].frame.maxX, 2_998, accuracy: 1e-9)
        XCTAssertNil(L.solver._consistencyProblem())
    }

    /// The first weight on a chain without any makes every rule again, ties before the positions: each tie then
    /// takes its view's size over with nothing downstream of it yet.
    func testTheFirstWeightRemakesAChain() throws {
        let L = try Layout(width: 2_000, height: 100)
        let views = try (0 ..< 6).map { try L.addView("v\($0)") }
        for v in views { try v.setIntrinsicSize(width: 10, height: 10) }
        let chain = try L.addChain(views, axis: .horizontal, style: .packed, gap: 4)
        try L.solve()
        XCTAssertEqual(views[5].frame.maxX - views[0].frame.minX, 6 * 10 + 5 * 4, accuracy: 1e-9)
        try chain.setWeight(3, of: views[2])
        try L.solve()
        XCTAssertEqual(views[2].frame.width, 2_000 - 5 * 10 - 5 * 4, accuracy: 1e-9)
        try chain.setWeight(1, of: views[4])
        try L.solve()
        XCTAssertEqual(views[2].frame.width, 3 * views[4].frame.width, accuracy: 1e-9)
        XCTAssertEqual(views[5].frame.maxX, 2_000, accuracy: 1e-9)
        XCTAssertNil(chain._rulesProblem())
        try chain.setWeight(nil, of: views[2])
        try chain.setWeight(nil, of: views[4])
        try L.solve()
        XCTAssertEqual(views[5].frame.maxX - views[0].frame.minX, 6 * 10 + 5 * 4, accuracy: 1e-9)
        XCTAssertNil(chain._rulesProblem())
    }

    func testUserGuide() throws {
        let L = try Layout(width: 400, height: 300)
        try L.addView("a")
        try L.addView("b")
        let g = try L.addGuide("gap")
        XCTAssertTrue(g.isGuide)
        try L.eqs("""
            a.left == 10
            a.width == 50
            gap.left == a.right
            gap.width == 30
            b.left == gap.right
            b.width == a.width
            gap.top == 0
            gap.height == 10
            a.top == 0
            a.height == 10
            b.top == 0
            b.height == 10
            """)
        try L.solve()
        assertFrame(L["b"], 90, 0, 50, 10)
        let snap = L.snapshot()
        XCTAssertEqual(snap["gap"]?.isUserGuide, true)
        XCTAssertTrue(L.svg().contains("data-view=\"gap\""))
        XCTAssertFalse(L.changedViews.contains(g))
        XCTAssertEqual(expectError { try L.addView("x", in: g) }?.kind, .invalid)
        try L.removeView(g)
        XCTAssertNil(L["gap"])
    }

    func chainLayout() throws -> (Layout, [View]) {
        let L = try Layout(width: 400, height: 300)
        var v: [View] = []
        for (n, w) in [("a", 40.0), ("b", 60), ("c", 80)] {
            v.append(try L.addView(n))
            try L.eqs("\(n).top == 0\n\(n).height == 10\n\(n).width == \(w) @ 500")
        }
        return (L, v)
    }

    /// Spread chains and equal-spacing stacks of many views, made at once or one view at a time, stay in
    /// proportion to their views: each spacer ranks as if made right after the view before it, so the chain is
    /// a chain of definitions (unplaced, a spread chain of 120 views filled 75k cells, and so did an equal-spacing
    /// stack appended to one view at a time), and the one bound on the gaps is on the first.
    func testSpacedArrangementsStayLinear() throws {
        let n = 120
        for style in [ChainStyle.spread, .spreadInside] {
            let L = try Layout(width: 1000, height: 300)
            var v: [View] = []
            for i in 0 ..< n {
                v.append(try L.addView("v\(i)"))
                try L.eqs("v\(i).top == 0\nv\(i).height == 10\nv\(i).width == \(2 + i % 3) @ 500")
            }
            try L.addChain(v, axis: .horizontal, style: style, gap: 1)
            // Solved, then resized (values evaluated again through definitions made in the placed order).
            for width in [1000.0, 800, 1200] {
                try L.setRootSize(width: width, height: 300)
                try L.solve()
                XCTAssertLessThan(L.usage.solver.cells, 40 * n, "\(style): \(L.usage.solver.cells) cells")
                let gaps = (1 ..< n).map { v[$0].frame.x - v[$0 - 1].frame.maxX }
                let total = (0 ..< n).map { Double(2 + $0 % 3) }.reduce(0, +)
                let gap = style == .spread ? (width - total) / Double(n + 1) : (width - total) / Double(n - 1)
                for g in gaps { XCTAssertEqual(g, gap, accuracy: 1e-6, "\(style) at \(width)") }
                XCTAssertEqual(v[0].frame.x, style == .spread ? gap : 0, accuracy: 1e-6)
                XCTAssertNil(L.solver._consistencyProblem())
            }
        }
        let L = try Layout(width: 1000, height: 300)
        let s = try L.addStack("s")
        try s.setDistribution(.equalSpacing)
        try L.eqs("s.left == 0\ns.top == 0\ns.right == root.right\ns.height == 40")
        for i in 0 ..< n {
            let v = try L.addView("v\(i)", in: s.view)
            try L.eqs("v\(i).width == 2 @ 500")
            try s.addArrangedView(v)
        }
        try L.solve()
        XCTAssertLessThan(L.usage.solver.cells, 40 * n, "equal spacing: \(L.usage.solver.cells) cells")
        let x = s.arrangedViews.map(\.frame.x)
        for k in 1 ..< n { XCTAssertEqual(x[k] - x[k - 1], (1000 - 2 * Double(n)) / Double(n - 1) + 2, accuracy: 1e-6) }
    }

    /// Ending a chain, or removing the view of a stack, takes the constraints out latest first: the positions
    /// are definitions that follow from the first view, and taking the first out first wrote every later one
    /// out again (ending a spread chain of 8,000 views: 21 s, now 0.08 s). Counted in solver work, not time.
    func testEndingAnArrangementTakesItsConstraintsOutLatestFirst() throws {
        let n = 300
        func views(_ L: Layout, in parent: View? = nil) throws -> [View] {
            try (0 ..< n).map { i in
                let v = try L.addView("v\(i)", in: parent)
                try v.setIntrinsicSize(width: 10, height: 10)
                return v
            }
        }
        let L = try Layout(width: 100_000, height: 100)
        let chain = try L.addChain(try views(L), axis: .horizontal, style: .spread)
        try L.solve()
        var pivots = L.solver._statistics.pivots, visits = L.solver._swaps.downstreamVisits
        try chain.remove()
        XCTAssertLessThan(L.solver._statistics.pivots - pivots, 10, "pivots ending the chain")
        XCTAssertLessThan(L.solver._swaps.downstreamVisits - visits, 10 * n, "rows visited ending the chain")
        try L.solve()

        let M = try Layout(width: 100_000, height: 100)
        let stack = try M.addStack("st")
        try M.eqs("st.left == 0\nst.top == 0")
        try stack.insertArrangedViews(try views(M, in: stack.view), at: 0)
        try M.solve()
        pivots = M.solver._statistics.pivots; visits = M.solver._swaps.downstreamVisits
        try M.removeView(stack.view)
        XCTAssertLessThan(M.solver._statistics.pivots - pivots, 10, "pivots removing the stack")
        XCTAssertLessThan(M.solver._swaps.downstreamVisits - visits, 10 * n, "rows visited removing the stack")
        try M.solve()
    }

    /// A chain switched between the spread styles keeps its tableau in proportion to its views: the spacer
    /// between views k - 1 and k has the same number (and rank) in both (numbered from 0 in spreadInside, each
    /// sat a view further than its rank: 1,000 views filled 5.0M cells, 8,000 reached the cells limit).
    func testSwitchingAChainsStyleKeepsItsTableauSmall() throws {
        let n = 400
        let L = try Layout(width: Double(3 * n), height: 100)
        var views: [View] = []
        for i in 0 ..< n {
            let v = try L.addView("v\(i)")
            try v.setIntrinsicSize(width: 1, height: 10)
            views.append(v)
        }
        let chain = try L.addChain(views, axis: .horizontal, style: .spread)
        try L.solve()
        let made = L.usage.solver.cells
        for style in [ChainStyle.spreadInside, .spread, .spreadInside, .packed, .spread] {
            try chain.setStyle(style)
            try L.solve()
            XCTAssertLessThan(L.usage.solver.cells, 3 * made, "\(style)")
            XCTAssertEqual(views[n - 1].frame.maxX, style == .spreadInside ? Double(3 * n) : Double(3 * n) - (style == .packed ? Double(n) : (Double(3 * n) - Double(n)) / Double(n + 1)), accuracy: 1e-6, "\(style)")
        }
        // A style that cannot hold changes nothing.
        try L.eq("v0.left == 5")
        try L.solve()
        let frames = views.map(\.frame), ids = Set(chain.constraints.map(\.id))
        XCTAssertThrowsError(try chain.setStyle(.spreadInside))
        XCTAssertEqual(chain.style, .spread)
        XCTAssertEqual(Set(chain.constraints.map(\.id)), ids)
        XCTAssertNil(chain._rulesProblem())
        try L.solve()
        XCTAssertEqual(views.map(\.frame), frames)
    }

    func testChainStyles() throws {
        let cases: [(ChainStyle, Double, [Double])] = [
            (.spread, 0.5, [55, 150, 265]),
            (.spreadInside, 0.5, [0, 150, 320]),
            (.packed, 0.5, [110, 150, 210]),
            (.packed, 0.25, [55, 95, 155]),
            (.packed, 1, [220, 260, 320]),
        ]
        for (style, bias, want) in cases {
            let (L, v) = try chainLayout()
            let c = try L.addChain(v, axis: .horizontal, style: style, bias: bias)
            try L.solve()
            XCTAssertEqual(v.map(\.frame.x), want, "\(style) \(bias)")
            XCTAssertTrue(c.title.contains("a…c"))
        }
        // Weights share the room left; gaps fixed.
        let (L, v) = try chainLayout()
        let c = try L.addChain(v, axis: .horizontal, style: .spread, gap: 10, weights: [1, nil, 3])
        try L.solve()
        XCTAssertEqual(v.map(\.frame.width), [80, 60, 240])
        XCTAssertEqual(v.map(\.frame.x), [0, 90, 160])
        // One weighted view takes all the room left, whichever it is.
        for k in 0 ..< 3 {
            for i in 0 ..< 3 { try c.setWeight(i == k ? 1 : nil, of: v[i]) }
            try L.solve()
            XCTAssertEqual(v[k].frame.width, 400 - 20 - [40.0, 60, 80].enumerated().filter { $0.offset != k }.map(\.element).reduce(0, +), "\(k)")
        }
        try c.setWeight(nil, of: v[0])
        try c.setWeight(nil, of: v[1])
        try c.setWeight(nil, of: v[2])
        try c.setStyle(.spreadInside)
        try L.solve()
        XCTAssertEqual(v.map(\.frame.x), [0, 150, 320])
        try c.remove()
        XCTAssertTrue(L.allConstraints.allSatisfy { if case .arrangement = $0.origin { return false }; return true })
        XCTAssertFalse(L.snapshot(includeGuides: true).views.contains { $0.name.contains("#") })
    }

    func testBarrierFollowsWidestLabel() throws {
        let L = try Layout(width: 400, height: 300)
        try L.setTextMeasurer(SimpleTextMeasurer())
        let l1 = try L.addView("name"), l2 = try L.addView("email"), f = try L.addView("field")
        try l1.setText(TextContent("Name", style: TextStyle(fontSize: 10)))
        try l2.setText(TextContent("Email", style: TextStyle(fontSize: 10)))
        try L.eqs("""
            name.left == 10
            name.top == 10
            email.left == 10
            email.top == 40
            field.top == 10
            field.height == 20
            field.right == root.right - 10
            """)
        let b = try L.addBarrier("labels", side: .trailing, views: [l1, l2], margin: 0)
        try L.eq("field.leading == labels.trailing + 8")
        try L.solve()
        XCTAssertEqual(l1.frame.width, 24)
        XCTAssertEqual(l2.frame.width, 30)
        XCTAssertEqual(b.guide.frame.x, 40)
        XCTAssertEqual(f.frame.x, 48)
        try l1.setText(TextContent("Full name", style: TextStyle(fontSize: 10)))
        try L.solve()
        XCTAssertEqual(b.guide.frame.x, 64)
        XCTAssertEqual(f.frame.x, 72)
        try l1.setText(TextContent("N", style: TextStyle(fontSize: 10)))
        try L.solve()
        XCTAssertEqual(f.frame.x, 48, "back to the other label")
        try b.setMargin(4)
        try L.solve()
        XCTAssertEqual(f.frame.x, 52)
        try L.removeView(l2)
        try L.solve()
        XCTAssertEqual(f.frame.x, 10 + 6 + 4 + 8)
        try L.removeView(b.guide)
        XCTAssertFalse(b.isValid)
    }
}

final class VisualFormatTests: XCTestCase {
    func layout() throws -> Layout {
        let L = try Layout(width: 400, height: 300)
        for n in ["a", "b", "c"] { try L.addView(n) }
        return L
    }

    func testForms() throws {
        var L = try layout()
        var cs = try L.vfl("H:|-[a]-[b(==a)]-|")
        XCTAssertEqual(cs.map(\.description), ["b.width == a.width", "a.leading == root.leading + 20",
                                                "b.leading == a.trailing + 8", "root.trailing == b.trailing + 20"])
        try L.eqs("a.top == 0\na.height == 10\nb.top == 0\nb.height == 10")
        try L.solve()
        assertFrame(L["a"], 20, 0, 176, 10)
        assertFrame(L["b"], 204, 0, 176, 10)

        L = try layout()
        cs = try L.vfl("V:|[a][b]|")
        XCTAssertEqual(cs.map(\.description), ["a.top == root.top", "b.top == a.bottom", "root.bottom == b.bottom"])

        L = try layout()
        cs = try L.vfl("H:|-pad-[a(w)]-(>=gap@750)-[b(>=50,<=100@500)]", metrics: ["pad": 12, "w": 30, "gap": 6])
        XCTAssertEqual(cs.map(\.description), ["a.width == 30", "b.width >= 50", "b.width <= 100 @ 500",
                                                "a.leading == root.leading + 12", "b.leading >= a.trailing + 6 @ 750"])

        L = try layout()
        cs = try L.vfl("[a]-10-[b]-(-5)-[c]", options: [.alignAllTop, .alignAllBottom])
        XCTAssertEqual(cs.map(\.description), ["b.leading == a.trailing + 10", "c.leading == b.trailing - 5",
                                                "b.top == a.top", "c.top == b.top", "b.bottom == a.bottom", "c.bottom == b.bottom"])

        L = try layout()
        cs = try L.vfl("H:|-[a]-|\nV:|-(==8@999)-[a(==40)]", options: [])
        XCTAssertEqual(cs.count, 4)
        cs = try L.vfl("H:[b]-[c]", options: .directionLeftToRight)
        XCTAssertEqual(cs.map(\.description), ["c.left == b.right + 8"])
        L = try layout()
        cs = try L.vfl("H:|-[b]-[c]-|", options: .directionRightToLeft)
        XCTAssertEqual(cs.map(\.description), ["root.right == b.right + 20", "b.left == c.right + 8",
                                                "c.left == root.left + 20"])
        XCTAssertEqual(try VisualFormatOptions(parsing: "alignAllTop | alignAllBottom"), [.alignAllTop, .alignAllBottom])
    }

    func testErrorsPointAtTheCharacter() throws {
        let L = try layout()
        func fail(_ f: String, _ kind: LayoutError.Kind, at offset: Int, metrics: [String: Double] = [:],
                  options: VisualFormatOptions = [], line: UInt = #line) {
            let e = expectError({ try L.vfl(f, metrics: metrics, options: options) }, line: line)
            XCTAssertEqual(e?.kind, kind, "\(f): \(e?.description ?? "")", line: line)
            XCTAssertEqual(e?.offset, offset, "\(f): \(e?.description ?? "")", line: line)
        }
        fail("H:|-[a(>=50]-|", .parse, at: 11)
        fail("H:|-[zz]", .unknownView, at: 5)
        fail("H:[a]-gap-[b]", .parse, at: 6)
        fail("H:[a]-8[b]", .parse, at: 7)
        fail("H:[a]-", .parse, at: 6)
        fail("H:[a]-|x", .parse, at: 7)
        fail("H:[a(==50@2000)]", .parse, at: 10)
        fail("H:[a][b]", .invalid, at: 0, options: .alignAllLeft)
        fail("H:[a(==zz)]", .unknownView, at: 7)
        let e = expectError { try L.vfl("H:|-[a(>=50]-|") }
        XCTAssertTrue(e?.description.contains("H:|-[a(>=50]-|\n               ^") ?? false, e?.description ?? "")
        XCTAssertEqual(L.constraints.count, 0, "nothing changed")
    }
}
