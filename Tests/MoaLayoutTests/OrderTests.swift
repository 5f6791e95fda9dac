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
