import MoaLayout
import XCTest

/// A layout written in any order of its equation lines and views gives the same frames.
final class LayoutOrderTests: XCTestCase {
    /// A toolbar of `n` buttons with preferred widths, a list of rows under it, and a sidebar.
    func lines(_ n: Int) -> [String] {
        var out = ["sidebar.left == 0", "sidebar.top == 0", "sidebar.width == 120", "sidebar.bottom == view.bottom",
                   "content.left == sidebar.right + 8", "content.right == view.right - 8", "content.top == 8",
                   "content.bottom == view.bottom - 8"]
        for i in 0..<n {
            let prev = i == 0 ? "content.left" : "b\(i - 1).right"
            out.append("b\(i).left == \(prev) + \(4 + i % 3 * 2)")
            out.append("b\(i).top == content.top")
            out.append("b\(i).width >= 20")
            out.append("b\(i).width == \(30 + i * 17 % 50) @ low")
            out.append("b\(i).height == 24")
            out.append("r\(i).left == content.left")
            out.append("r\(i).right == content.right")
            out.append("r\(i).top == \(i == 0 ? "b0.bottom" : "r\(i - 1).bottom") + 4")
            out.append("r\(i).height >= 16")
            out.append("r\(i).height == \(18 + i % 4 * 3) @ high")
        }
        out.append("content.right >= b\(n - 1).right + 8")
        return out
    }

    func frames(_ order: [String], views: [String]) throws -> [String: Rect] {
        let layout = try Layout(width: 2000, height: 1400)
        for v in views { try layout.addView(v) }
        try layout.eqs(order.joined(separator: "\n"))
        try layout.solve()
        var out: [String: Rect] = [:]
        for v in views { out[v] = layout[v]!.frame }
        return out
    }

    func testShuffledEquationsAndViewsGiveTheSameFrames() throws {
        let n = 25
        let views = ["sidebar", "content"] + (0..<n).flatMap { ["b\($0)", "r\($0)"] }
        let all = lines(n)
        let reference = try frames(all, views: views)
        var rng = SplitMix(state: 3)
        for round in 0..<4 {
            var order = all
            for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, rng.int(i + 1)) }
            var viewOrder = views
            for i in stride(from: viewOrder.count - 1, to: 0, by: -1) { viewOrder.swapAt(i, rng.int(i + 1)) }
            let got = try frames(order, views: viewOrder)
            for v in views {
                XCTAssertTrue(got[v]!.isClose(to: reference[v]!, tolerance: 1e-6),
                              "round \(round): \(v) \(got[v]!) != \(reference[v]!)")
            }
        }
    }

    /// A column of views made in a random order with its equations shuffled, in one `eqs` call (a Lua program
    /// iterating `pairs` for both): the same frames and, the batch's fresh variables ranked by its equalities
    /// (`Solver.rankFreshVariables`), the tableau of the column written in order within a few percent. Without
    /// the ranking, 300 views held 13-14x the cells, and 10,000 views built in 12-15 s against 0.4 s.
    func testAColumnMadeAndWrittenInAnyOrderBuildsTheSameTableau() throws {
        let n = 300
        var all: [String] = []
        for i in 0..<n {
            all.append("v\(i).left == 8")
            all.append("v\(i).width == \(100 + i % 7)")
            all.append(i == 0 ? "v0.top == 8" : "v\(i).top == v\(i - 1).bottom + 4")
            all.append("v\(i).height >= 10")
            all.append("v\(i).height == \(20 + i % 5) @ low")
        }
        let names = (0..<n).map { "v\($0)" }
        func build(_ lines: [String], _ views: [String]) throws -> (frames: [Rect], cells: Int) {
            let layout = try Layout(width: 400, height: 20_000)
            for v in views { try layout.addView(v) }
            try layout.eqs(lines.joined(separator: "\n"))
            try layout.solve()
            return (names.map { layout[$0]!.frame }, layout.solver.usage.cells)
        }
        let reference = try build(all, names)
        var rng = SplitMix(state: 17)
        for round in 0..<3 {
            var lines = all, views = names
            for i in stride(from: lines.count - 1, to: 0, by: -1) { lines.swapAt(i, rng.int(i + 1)) }
            for i in stride(from: views.count - 1, to: 0, by: -1) { views.swapAt(i, rng.int(i + 1)) }
            let got = try build(lines, views)
            XCTAssertLessThanOrEqual(got.cells, reference.cells + reference.cells / 10,
                                     "round \(round): \(got.cells) cells, \(reference.cells) in order")
            for i in 0..<n {
                XCTAssertTrue(got.frames[i].isClose(to: reference.frames[i], tolerance: 1e-6),
                              "round \(round): v\(i) \(got.frames[i]) != \(reference.frames[i])")
            }
        }
    }

    /// An `eqs` call that fails (its last line cannot hold) leaves nothing that matters behind: the same lines
    /// without the bad one then build what a fresh layout builds from them (frames and tableau), though the
    /// failed call ranked its views' variables and added constraints before the one that failed.
    func testAFailedBatchLeavesTheSameLayoutToBuild() throws {
        var lines: [String] = []
        for i in (0..<40).reversed() {
            lines.append("v\(i).left == 8")
            lines.append(i == 39 ? "v39.top == 8" : "v\(i).top == v\(i + 1).bottom + 4")
            lines.append("v\(i).height >= 10")
            lines.append("v\(i).height == \(20 + i % 3) @ low")
            lines.append("v\(i).width == 30")
        }
        func make() throws -> Layout {
            let layout = try Layout(width: 400, height: 2_000)
            for i in 0..<40 { try layout.addView("v\(i)") }
            return layout
        }
        let fresh = try make()
        try fresh.eqs(lines.joined(separator: "\n"))
        try fresh.solve()
        let retried = try make()
        let empty = retried.solver.usage.cells   // the root's own rows
        XCTAssertThrowsError(try retried.eqs((lines + ["v0.right == 100"]).joined(separator: "\n")))   // 8 + 30
        XCTAssertEqual(retried.solver.usage.cells, empty)
        try retried.eqs(lines.joined(separator: "\n"))
        try retried.solve()
        XCTAssertEqual(retried.solver.usage.cells, fresh.solver.usage.cells)
        for i in 0..<40 {
            XCTAssertTrue(retried["v\(i)"]!.frame.isClose(to: fresh["v\(i)"]!.frame, tolerance: 1e-9), "v\(i)")
        }
    }
}

/// SplitMix64 (as in the solver's random tests): deterministic orders.
struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
