import MoaLayout
import MoaSolver
import XCTest

/// Limits and the progress handler: a call that reaches a limit fails with `.limit` and changes nothing.
final class LimitsTests: XCTestCase {
    func testSolverRowAndCellLimits() throws {
        let s = Solver()
        XCTAssertEqual(s.limits, SolverLimits(maxRows: 10_000_000, maxCells: 100_000_000))
        let x = (0..<3).map { _ in s.addVariable() }
        try s.add(Expression([Term(x[0], 1), Term(x[1], -1)], constant: -10), .equal)
        s.limits.maxRows = 1
        let before = s.dump()
        XCTAssertThrowsError(try s.add(Expression([Term(x[1], 1), Term(x[2], -1)], constant: -10), .equal)) {
            guard case SolverError.limit = $0 else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try s.addEditVariable(x[0], priority: 750))
        XCTAssertEqual(s.dump(), before)
        s.limits.maxRows = 2
        try s.add(Expression([Term(x[1], 1), Term(x[2], -1)], constant: -10), .equal)
        XCTAssertEqual(s.usage.rows, 2)
        s.limits.maxCells = s.usage.cells
        XCTAssertThrowsError(try s.add(Expression([Term(x[2], 1)], constant: 0), .greaterOrEqual))
    }

    func testLayoutProgressAndTime() throws {
        let layout = try Layout(width: 320, height: 480)
        var text = ""
        for i in 0..<200 {
            try layout.addView("v\(i)")
            text += i == 0 ? "v0.left == 0\n" : "v\(i).left == v\(i - 1).right + 4\n"
            text += "v\(i).top == 0\nv\(i).size == 20x30\n"
        }
        let before = layout.describeConstraints()
        var seen: [Int] = []
        try layout.setProgressHandler(every: 50) { steps in
            seen.append(steps)
            XCTAssertNil(try? layout.eq("v0.top == 1"))   // no changes from inside
            return steps < 300
        }
        XCTAssertThrowsError(try layout.eqs(text)) { XCTAssertEqual(($0 as? LayoutError)?.kind, .limit) }
        XCTAssertEqual(seen, [50, 100, 150, 200, 250, 300])
        XCTAssertEqual(layout.describeConstraints(), before)
        XCTAssertEqual(layout.usage.constraints, layout.allConstraints.count)

        try layout.setProgressHandler(nil)
        try layout.setLimits(LayoutLimits(maxSecondsPerCall: 1e-12))
        XCTAssertThrowsError(try layout.eqs(text)) { XCTAssertEqual(($0 as? LayoutError)?.kind, .limit) }
        XCTAssertEqual(layout.describeConstraints(), before)
        XCTAssertThrowsError(try layout.setLimits(LayoutLimits(maxSecondsPerCall: -1)))
        try layout.setLimits(LayoutLimits())
        try layout.eqs(text)
        try layout.solve()
        XCTAssertEqual(layout["v199"]?.frame.x, 199 * 24)
        XCTAssertGreaterThan(layout.usage.solver.rows, 600)
    }

    /// A pivots limit stops an equation whose optimisation moves many views (each gives way in its own pivot);
    /// the call changes nothing, and succeeds without the limit.
    func testLayoutPivotLimit() throws {
        let layout = try Layout(width: 2000, height: 100)
        var text = ""
        for i in 0..<30 {
            try layout.addView("v\(i)")
            text += i == 0 ? "v0.left == 0\n" : "v\(i).left == v\(i - 1).right + 4\n"
            text += "v\(i).top == 0\nv\(i).height == 20\nv\(i).width >= 10\nv\(i).width == \(50 + i) @ \(250 + i * 10)\n"
        }
        try layout.eqs(text)
        try layout.solve()
        let widths = { (0..<30).map { layout["v\($0)"]!.frame.width } }
        let before = widths(), described = layout.describeConstraints()
        try layout.setLimits(LayoutLimits(maxPivots: 1))
        XCTAssertEqual(layout.limits.maxPivots, 1)
        XCTAssertThrowsError(try layout.eqs("v29.right == -1400")) { XCTAssertEqual(($0 as? LayoutError)?.kind, .limit) }
        XCTAssertEqual(layout.describeConstraints(), described)
        try layout.solve()
        XCTAssertEqual(widths(), before)
        XCTAssertThrowsError(try layout.setLimits(LayoutLimits(maxPivots: 0)))
        try layout.setLimits(LayoutLimits())
        try layout.eqs("v29.right == -1400")
        try layout.solve()
        XCTAssertEqual(layout["v29"]!.frame.x + layout["v29"]!.frame.width, 600, accuracy: 1e-9)
        XCTAssertEqual(layout["v0"]!.frame.width, 10, accuracy: 1e-9)   // the weakest gave way first (to 10)
    }

    /// The progress handler inside one solver operation: an equation whose optimisation moves 600 views, one
    /// pivot each, calls it every `Layout.progressPivots` pivots (with the call's constraint count, here 1),
    /// closed to the solver; stopping there fails the call with `.limit` and changes nothing. A raw solver's
    /// progress check does the same.
    func testProgressInsideOneSolverOperation() throws {
        let layout = try Layout(width: 2000, height: 100)
        var text = ""
        let n = 600
        for i in 0..<n {
            try layout.addView("v\(i)")
            text += i == 0 ? "v0.left == 0\n" : "v\(i).left == v\(i - 1).right + 4\n"
            text += "v\(i).top == 0\nv\(i).height == 20\nv\(i).width >= 1\nv\(i).width == \(50 + i % 7) @ \(250 + i % 9 * 10)\n"
        }
        try layout.eqs(text)
        try layout.solve()
        let described = layout.describeConstraints(), usage = layout.usage
        var calls = 0, stop = true
        try layout.setProgressHandler(every: 1_000_000) { steps in
            calls += 1
            XCTAssertEqual(steps, 1)   // the call's first constraint, going in
            XCTAssertTrue(layout.isReportingProgressInsideSolver)
            XCTAssertTrue(layout.ambiguities().isEmpty)
            XCTAssertNil(try? layout.solve())
            XCTAssertEqual(layout["v0"]!.frame.width, 50)   // frames can be read
            return !stop
        }
        let edge = "v\(n - 1).right == 2000"   // the root's right + 2000: x = 4000, between the minimum and the preferences
        XCTAssertThrowsError(try layout.eqs(edge)) {
            XCTAssertEqual(($0 as? LayoutError)?.kind, .limit)
            XCTAssertTrue("\($0)".contains("progress"), "\($0)")
        }
        XCTAssertEqual(calls, 1)
        XCTAssertFalse(layout.isReportingProgressInsideSolver)
        XCTAssertEqual(layout.describeConstraints(), described)
        XCTAssertEqual(layout.usage, usage)
        calls = 0
        stop = false
        try layout.eqs(edge)
        XCTAssertGreaterThanOrEqual(calls, 2)
        try layout.solve()
        XCTAssertEqual(layout["v\(n - 1)"]!.frame.x + layout["v\(n - 1)"]!.frame.width, 4000, accuracy: 1e-6)

        // The raw solver: a check that stops leaves the dump as it was; one that goes on lets the call finish.
        let s = Solver()
        let xs = (0..<n).map { s.addVariable(name: "x\($0)") }
        for (i, x) in xs.enumerated() {
            _ = try s.add(Expression([Term(x, 1)], constant: -1), .greaterOrEqual)
            _ = try s.add(Expression([Term(x, 1)], constant: -Double(50 + i % 7)), .equal, priority: Double(250 + i % 9 * 10))
        }
        let sum = Expression(xs.map { Term($0, 1) }, constant: -Double(2 * n))
        s.updateVariables()
        let dump = s.dump()
        var checks = 0
        s.setProgressCheck(every: 100) { pivots in checks += 1; XCTAssertEqual(pivots, 100); return false }
        XCTAssertThrowsError(try s.add(sum, .equal)) { XCTAssertTrue("\($0)".contains("progress"), "\($0)") }
        XCTAssertEqual(checks, 1)
        XCTAssertEqual(s.dump(), dump)
        s.setProgressCheck(every: 100) { _ in checks += 1; return true }
        _ = try s.add(sum, .equal)
        XCTAssertGreaterThan(checks, 2)
        s.setProgressCheck(nil)
    }
}

/// Memory stays flat under a long run: priority levels nothing uses any more are collected (an animated
/// priority makes a new level every frame; the soak test found them piling up).
final class LevelCollectionTests: XCTestCase {
    func testAnimatedPriorityKeepsFewLevels() throws {
        let s = Solver()
        let x = s.addVariable(), y = s.addVariable()
        try s.add(Expression([Term(x, 1)], constant: -10), .equal, priority: 500)
        let c = try s.add(Expression([Term(x, 1)], constant: -20), .equal, priority: 400)
        try s.add(Expression([Term(y, 1), Term(x, -1)], constant: 0), .equal)
        for i in 0..<2000 {
            try s.setPriority(1 + Double(i) * 0.4, of: c)
            s.updateVariables()
            // Above 500 the second preference wins, below it the first: strict priorities.
            XCTAssertEqual(try s.value(of: y), 1 + Double(i) * 0.4 > 500 ? 20 : 10, "at \(i)")
        }
        XCTAssertLessThanOrEqual(s._levelCount, 16)
    }
}

/// Twins: a priority change can give two equations the same key (everything but the constant); removing the one
/// the re-issue table points at must hand the entry to the other, or `xeq` of its own description fails (found by
/// the soak test).
final class TwinEquationTests: XCTestCase {
    func testXeqFindsTheTwinOfARemovedEquation() throws {
        let layout = try Layout(width: 100, height: 100)
        try layout.addView("a")
        let first = try layout.eq("a.width == 10 @ 250")
        let second = try layout.eq("a.width == 20 @ 300")
        try second.setPriority(250)
        try layout.remove(first)
        XCTAssertEqual(try layout.xeq(second.description).map(\.id), [second.id])
        XCTAssertFalse(second.isValid)
    }

    /// Removing a container that holds most of the equations drops their re-issue entries in one pass over the
    /// table (`_dropDiscardedKeys`): the entries of what stays, twins included, must stay as they were.
    func testRemovingMostOfALayoutKeepsTheReissueEntriesOfWhatStays() throws {
        let layout = try Layout(width: 1000, height: 1000)
        try layout.addView("box")
        try layout.addView("s")
        var text = "box.left == 0\nbox.top == 0\n"
        for i in 0 ..< 40 {
            try layout.addView("v\(i)", in: try XCTUnwrap(layout.view(named: "box")))
            text += "v\(i).left == \(i * 10)\nv\(i).top == 0\nv\(i).width == 8\nv\(i).height == 8\n"
        }
        try layout.eqs(text)
        let kept = try layout.eq("s.width == 10")
        let first = try layout.eq("s.height == 10 @ 250")
        let second = try layout.eq("s.height == 20 @ 300")
        try second.setPriority(250)   // twins: both `s.height == _ @ 250`
        try layout.removeView(try XCTUnwrap(layout.view(named: "box")))
        XCTAssertEqual(try layout.eq("s.width == 30").id, kept.id, "a re-issue still updates what stayed")
        XCTAssertEqual(kept.constant, 30)
        XCTAssertEqual(try layout.xeq(first.description).map(\.id), [first.id])
        XCTAssertEqual(try layout.xeq(second.description).map(\.id), [second.id])
        try layout.addView("v3")
        let fresh = try layout.eq("v3.left == 5")
        XCTAssertTrue(fresh.isValid)
        XCTAssertEqual(try layout.xeq("v3.left == 0").map(\.id), [fresh.id])
        XCTAssertThrowsError(try layout.xeq("v3.top == 0"), "no entry left from the removed view of that name")
    }
}
